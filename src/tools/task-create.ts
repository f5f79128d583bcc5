import * as z from 'zod';
import { AgentName } from '../protocol/index.js';
import { isOneLine, ONE_LINE_SUBJECT, TaskId } from '../store/index.js';
import type { ToolIO } from './io.js';
import type { LeadTeamIO } from './team-io.js';
import { taskDetail } from './task-format.js';
import { defineTool } from './tool.js';

const Input = z.strictObject({
  subject: z.string().trim().min(1, 'subject is empty').max(200).refine(isOneLine, ONE_LINE_SUBJECT).describe('A short title, e.g. "Write the parser".'),
  description: z.string().trim().min(1, 'description is empty').describe('Everything whoever takes the task needs to know: teammates see nothing of your conversation.'),
  blocked_by: z.array(TaskId).optional().describe('Ids of tasks that must finish first; the task cannot be claimed until they have.'),
  assign_to: AgentName.optional().describe('The teammate who is to do it; left out, any teammate may claim it.'),
});

export const taskCreateTool = defineTool({
  name: 'task_create',
  description:
    'Put a task on the team board. Teammates claim unblocked pending tasks (an assigned one is kept for its owner, who is sent it); when a task completes or fails you get a task notification with its id and result.',
  input: Input,
  async run(input, io: Pick<ToolIO<LeadTeamIO>, 'team'>) {
    const task = await io.team.board.create({ subject: input.subject, description: input.description, blocked_by: input.blocked_by ?? [], assign_to: input.assign_to });
    return { content: `Created task ${task.id}:\n${taskDetail(task)}` };
  },
});
