import * as z from 'zod';
import type { ToolIO } from './io.js';
import type { TeammateTeamIO } from './team-io.js';
import { defineTool } from './tool.js';

const Input = z.strictObject({
  summary: z.string().trim().min(1, 'summary is empty').describe('What you did and where the results are.'),
});

/** A teammate's `finish_request`: its work is done and it asks to be ended; the human answers with a finish_response. */
export const finishRequestTool = defineTool({
  name: 'finish_request',
  description: 'Tell the lead your work is done and ask to be ended. The lead approves, or replies with what to continue with.',
  input: Input,
  async run(input, io: Pick<ToolIO<TeammateTeamIO>, 'team'>) {
    const { requestId } = await io.team.requestFinish(input.summary);
    return { content: `Done reported to the lead (request ${requestId}). Wait: the answer reaches you as a notice.` };
  },
});
