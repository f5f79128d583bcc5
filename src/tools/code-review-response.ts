import * as z from 'zod';
import { codeReviewRequest, RequestId, semanticBoolean } from '../protocol/index.js';
import type { ToolIO } from './io.js';
import { defineTool } from './tool.js';

const Input = z.strictObject({
  request_id: RequestId.describe("The review request's id, from its notice."),
  approve: semanticBoolean.describe('true to approve the change, false to request changes.'),
  comments: z.string().trim().min(1, 'comments is empty').describe('What you found: what to change, or why it is fine as it is.'),
});

/** Any member's `code_review_response`: the answer to a code review request addressed to it, sent back to whoever asked. */
export const codeReviewResponseTool = defineTool({
  name: 'code_review_response',
  description: 'Answer a code review request addressed to you: approve the change, or request changes, with your comments.',
  input: Input,
  async run(input, io: Pick<ToolIO, 'team'>) {
    const request = await io.team.requestStatus(input.request_id);
    if (request?.kind !== codeReviewRequest.role.kind) throw new Error(`no code review request has the id '${input.request_id}'; answer with the request_id its notice gives`);
    await io.team.send({ type: 'code_review_response', to: request.from, request_id: input.request_id, approve: input.approve, comments: input.comments });
    return { content: `${input.approve ? 'Approval' : 'Requested changes'} sent to ${request.from}.` };
  },
});
