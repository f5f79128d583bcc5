import * as z from 'zod';
import { RequestId } from '../protocol/index.js';
import type { ToolIO } from './io.js';
import { defineTool } from './tool.js';

const Input = z.strictObject({
  request_id: RequestId.describe('The id shutdown_request returned.'),
});

/** The lead's `shutdown_status`: it looks up the answer a teammate gave with shutdown_response (seed 003). */
export const shutdownStatusTool = defineTool({
  name: 'shutdown_status',
  description: 'Look up the state of a shutdown request you sent: pending, approved, rejected (with the reason), expired or cancelled.',
  input: Input,
  async run(input, io: Pick<ToolIO, 'team'>) {
    const record = await io.team.requestStatus(input.request_id);
    if (record === undefined) return { content: `No request with id '${input.request_id}'.`, isError: true };
    const state = record.state === 'pending' ? 'pending, no answer yet' : record.state;
    const note = record.note ? `: ${record.note}` : '';
    return { content: `Request ${record.request_id} (${record.kind}, to ${record.to}) is ${state}${note}.` };
  },
});
