import * as z from 'zod';
import { newRequestId, codeReviewRequest, AgentName } from '../protocol/index.js';
import type { ToolIO } from './io.js';
import { defineTool } from './tool.js';

const Input = z
  .strictObject({
    to: AgentName.describe("Who should review: a teammate's name, or 'lead'."),
    subject: z.string().trim().min(1, 'subject is empty').max(200, 'subject is longer than 200 characters').describe('What to review and what to look for, in one line.'),
    files: z.array(z.string().min(1, 'a file name is empty')).optional().describe('The files to review, relative to the working directory.'),
    diff: z.string().optional().describe('A unified diff of the change, instead of or besides the files.'),
  })
  .refine((input) => (input.files?.length ?? 0) > 0 || (input.diff ?? '').trim() !== '', { path: ['files'], message: 'give the files to review or a diff' });

/** Any member's `code_review_request`: sends that kind to another member, who answers with code_review_response. */
export const codeReviewRequestTool = defineTool({
  name: 'code_review_request',
  description: 'Ask another team member to review your change: name the files or give a diff. Their answer (approve, or changes to make) reaches you as a notice.',
  input: Input,
  async run(input, io: Pick<ToolIO, 'team'>) {
    const requestId = newRequestId(codeReviewRequest.role.kind);
    await io.team.send({ type: 'code_review_request', to: input.to, request_id: requestId, subject: input.subject, files: input.files, diff: input.diff });
    return { content: `Review requested from ${input.to} (request ${requestId}). Their answer reaches you as a notice; if none comes in time, you are told.` };
  },
});
