import * as z from 'zod';
import { AgentName } from '../protocol/index.js';
import { TaskBoardStatus } from '../store/index.js';
import type { ToolIO } from './io.js';
import { taskDetail } from './task-format.js';
import { defineTool } from './tool.js';

const Input = z.strictObject({
  status: TaskBoardStatus.optional().describe('Only tasks in this status: pending, in_progress, completed, failed or cancelled.'),
  owner: AgentName.optional().describe('Only tasks owned by (assigned to) this member.'),
});

/** Both roles read the board the same way. */
export const taskListTool = defineTool({
  name: 'task_list',
  description: "The team's task board: each task's id, status, owner, the tasks blocking it, subject, description, result and notes.",
  input: Input,
  async run(input, io: Pick<ToolIO, 'team'>) {
    const tasks = await io.team.board.list(input);
    if (tasks.length === 0) return { content: input.status || input.owner ? 'No task on the board matches.' : 'The task board is empty.' };
    return { content: tasks.map(taskDetail).join('\n') };
  },
});
