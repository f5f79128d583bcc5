import * as z from 'zod';
import { AgentName } from '../protocol/index.js';
import { TaskBoardStatus, TaskId } from '../store/index.js';
import type { ToolIO } from './io.js';
import type { LeadTeamIO, TeammateTeamIO } from './team-io.js';
import { boardAnswer } from './task-format.js';
import { defineTool } from './tool.js';

const result = z.string().trim().min(1, 'result is empty').max(20_000).describe('What came of it: what was done, where it is, what is left.');

const LeadInput = z
  .strictObject({
    task_id: TaskId,
    status: TaskBoardStatus.optional().describe('The new status, e.g. cancelled; in_progress goes back to pending to free it.'),
    result: result.optional(),
    assign_to: AgentName.nullable().optional().describe('Assign the pending task to this teammate (it is sent the task), or null to let anyone claim it.'),
    blocked_by: z.array(TaskId).optional().describe('Replace what the pending task waits on; cycles are refused.'),
    note: z.string().trim().min(1).optional().describe('A note kept with the task.'),
  })
  .refine((i) => i.status !== undefined || i.result !== undefined || i.assign_to !== undefined || i.blocked_by !== undefined || i.note !== undefined, {
    message: 'nothing to change: give status, result, assign_to, blocked_by or note',
  });

/** The lead's `task_update`: any task, any field the rules allow; the teammate's tool of the same name changes only its own. */
export const leadTaskUpdateTool = defineTool({
  name: 'task_update',
  description: 'Change a task on the board: cancel it, (re)assign or unassign it, change what blocks it, or record a result or a note.',
  input: LeadInput,
  async run(input, io: Pick<ToolIO<LeadTeamIO>, 'team'>) {
    const { task_id, status, assign_to, blocked_by, note } = input;
    const change = { op: 'set' as const, status, owner: assign_to, blocked_by, note, result: input.result };
    return boardAnswer(await io.team.board.update(task_id, change), `Task ${task_id} updated`);
  },
});

const TeammateInput = z
  .strictObject({
    task_id: TaskId,
    status: z.enum(['completed', 'failed', 'pending']).describe('completed or failed when you are done (the lead is told, with your result); pending to give the task back.'),
    result: result.optional(),
  })
  .refine((i) => i.status === 'pending' || i.result !== undefined, { message: 'result is required when a task is completed or failed: say what came of it', path: ['result'] });

export const teammateTaskUpdateTool = defineTool({
  name: 'task_update',
  description:
    "Finish one of your tasks (completed or failed, with its result: the lead is told at once), or give it back (pending). A completion is recorded by the lead once the project's checks pass; if one fails, you are sent its output and the task stays yours.",
  input: TeammateInput,
  async run(input, io: Pick<ToolIO<TeammateTeamIO>, 'team'>) {
    const { task_id, status, result } = input;
    if (status === 'completed' && result !== undefined) {
      const reported = await io.team.board.complete(task_id, result);
      if (!reported.ok) return boardAnswer(reported, '');
      return {
        content: `Reported task ${task_id} completed to the lead, which records it on the board once the project's task_completed checks pass. If one fails you are sent its output, and the task stays yours, in progress.`,
      };
    }
    return boardAnswer(await io.team.board.update(task_id, { op: 'set', status, result }), `Task ${task_id} is ${status}`);
  },
});
