import * as z from 'zod';
import { AgentName } from '../protocol/index.js';
import type { ToolIO } from './io.js';
import type { LeadTeamIO } from './team-io.js';
import { defineTool } from './tool.js';

const Input = z.strictObject({
  teammate: AgentName.describe('The teammate to shut down.'),
  reason: z.string().optional().describe('Why, shown to the teammate.'),
});

export const shutdownRequestTool = defineTool({
  name: 'shutdown_request',
  description:
    'Ask a teammate to shut down gracefully. It approves (and exits after its turn) or rejects with a reason; ' +
    'the answer reaches you as a notice, and shutdown_status looks it up by request_id.',
  input: Input,
  async run(input, io: Pick<ToolIO<LeadTeamIO>, 'team'>) {
    const { requestId } = await io.team.requestShutdown(input.teammate, input.reason);
    return { content: `Shutdown request ${requestId} sent to ${input.teammate}.` };
  },
});
