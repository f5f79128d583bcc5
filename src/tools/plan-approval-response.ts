import * as z from 'zod';
import { RequestId, semanticBoolean } from '../protocol/index.js';
import type { ToolIO } from './io.js';
import type { LeadTeamIO } from './team-io.js';
import { defineTool } from './tool.js';

const Input = z.strictObject({
  request_id: RequestId.describe("The plan request's id, from the teammate's plan message."),
  approve: semanticBoolean.describe('true to let the teammate carry the plan out, false to send it back.'),
  feedback: z.string().optional().describe('What to change; give it when rejecting.'),
});

/** The lead's `plan_approval_response`: it decides the plan a teammate submitted with plan_approval_request. */
export const planApprovalResponseTool = defineTool({
  name: 'plan_approval_response',
  description: "Approve or reject a teammate's plan. A rejected teammate revises its plan from your feedback and submits it again.",
  input: Input,
  async run(input, io: Pick<ToolIO<LeadTeamIO>, 'team'>) {
    await io.team.reviewPlan(input.request_id, input.approve, input.feedback);
    return { content: `Plan ${input.request_id} ${input.approve ? 'approved' : 'rejected'}.` };
  },
});
