import * as z from 'zod';
import { RequestId, semanticBoolean } from '../protocol/index.js';
import type { ToolIO } from './io.js';
import type { TeammateTeamIO } from './team-io.js';
import { defineTool } from './tool.js';

const Input = z
  .strictObject({
    request_id: RequestId.describe('The request_id of the shutdown request you are answering.'),
    approve: semanticBoolean.describe('true to shut down after this turn, false to keep working.'),
    reason: z.string().optional().describe('Required when rejecting: why you must keep working.'),
  })
  .refine((input) => input.approve || (input.reason ?? '').trim() !== '', {
    path: ['reason'],
    message: 'reason is required when approve is false: say why you must keep working',
  });

/** A teammate's `shutdown_response`: it answers the lead's shutdown_request; the lead looks the answer up with shutdown_status. */
export const shutdownResponseTool = defineTool({
  name: 'shutdown_response',
  description: "Answer the lead's shutdown request. Approving ends your process after this turn; reject only with a reason.",
  input: Input,
  async run(input, io: Pick<ToolIO<TeammateTeamIO>, 'team'>) {
    await io.team.answerShutdown(input.request_id, input.approve, input.reason);
    return { content: input.approve ? 'Shutdown approved: finish this turn; the process ends after it.' : 'Shutdown rejected; the lead has your reason.' };
  },
});
