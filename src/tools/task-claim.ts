import * as z from 'zod';
import { TaskId } from '../store/index.js';
import type { ToolIO } from './io.js';
import type { TeammateTeamIO } from './team-io.js';
import { boardAnswer } from './task-format.js';
import { defineTool } from './tool.js';

const Input = z.strictObject({
  task_id: TaskId.optional().describe('The task to claim; left out, the next unblocked pending task for you (those assigned to you first, then the oldest).'),
});

export const taskClaimTool = defineTool({
  name: 'task_claim',
  description: 'Claim a task on the team board: it becomes yours and in_progress. If another teammate claimed it first, you are told who has it.',
  input: Input,
  async run(input, io: Pick<ToolIO<TeammateTeamIO>, 'team'>) {
    return boardAnswer(await io.team.board.claim(input.task_id), 'Claimed; it is yours now');
  },
});
