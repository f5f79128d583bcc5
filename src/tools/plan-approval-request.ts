import * as z from 'zod';
import type { ToolIO } from './io.js';
import type { TeammateTeamIO } from './team-io.js';
import { defineTool } from './tool.js';

const Input = z.strictObject({
  plan: z.string().trim().min(1, 'plan is empty').describe('What you will do, step by step, and which files you will change.'),
});

/** A teammate's `plan_approval_request`: it submits a plan; the lead decides it, or its model with plan_approval_response. */
export const planApprovalRequestTool = defineTool({
  name: 'plan_approval_request',
  description: 'Submit your plan for approval before major work. Change nothing until the decision reaches you; if rejected, revise and submit again.',
  input: Input,
  async run(input, io: Pick<ToolIO<TeammateTeamIO>, 'team'>) {
    const { requestId } = await io.team.submitPlan(input.plan);
    return { content: `Plan submitted (request ${requestId}). Wait for the decision before changing anything.` };
  },
});
