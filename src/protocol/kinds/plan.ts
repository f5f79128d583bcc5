import * as z from 'zod';
import { envelopeOf, PermissionMode, RequestId } from '../fields.js';
import { newRequestId } from '../ids.js';
import { LEAD } from '../names.js';
import { defineKind, responseTo, type DraftOf, type TeammateState } from './spec.js';
import { colon, header, sentence, summarize } from './text.js';

/**
 * Seed protocol 2: a teammate in plan mode submits its plan and may change nothing until it
 * is approved. The human decides, or the lead's model with --plan-reviewer lead.
 */

/**
 * The mode a teammate works in once its plan is approved, or that a teammate of a lead in
 * `mode` starts in: the lead's own, except that plan mode itself becomes default (seed 000).
 */
export function modeAfterPlan(mode: PermissionMode | undefined): PermissionMode {
  return mode === undefined || mode === 'plan' ? 'default' : mode;
}

const Response = envelopeOf('plan_approval_response', {
  request_id: RequestId,
  approve: z.boolean(),
  feedback: z.string().optional(),
  permission_mode: PermissionMode.optional(),
});
type ResponseDraft = DraftOf<typeof Response>;
const Request = envelopeOf('plan_approval_request', { request_id: RequestId, plan: z.string().min(1, 'plan is empty') });

/** After this many rejections a teammate may not submit the plan again: it asks the lead what it needs instead. */
export const MAX_PLAN_REJECTIONS = 3;

/** Why a teammate may not submit another plan now, or undefined when it may. */
export function planSubmissionProblem(state: TeammateState): string | undefined {
  if (state.planApproved) return 'your plan is already approved; carry it out';
  if (state.planRejections >= MAX_PLAN_REJECTIONS) {
    return `your plan was rejected ${state.planRejections} times; stop resubmitting and ask the lead what it needs`;
  }
  return undefined;
}

/** A teammate's plan, addressed to the lead, under a new request id. */
export function planRequestDraft(from: string, plan: string): DraftOf<typeof Request> {
  return { type: 'plan_approval_request', from, to: LEAD, request_id: newRequestId(planRequest.role.kind), plan };
}

export const planRequest = defineKind(Request, {
  direction: 'to_lead',
  role: {
    class: 'request',
    kind: 'plan',
    response: 'plan_approval_response',
    deadlineMs: 10 * 60_000,
    subject: (e) => e.plan,
    expire: (r, waited) => ({
      response: responseTo(r, {
        type: 'plan_approval_response',
        approve: false,
        feedback: `No decision came in time: the plan was not approved within ${waited}, so it counts as rejected. Do not start that work; revise and resubmit the plan, or ask ${r.to}.`,
      }) satisfies ResponseDraft,
      note: `no decision within ${waited}; the plan counts as rejected`,
    }),
    humanDecides: (reviewer) => reviewer === 'human',
    answer: (r, d) =>
      responseTo(r, {
        type: 'plan_approval_response',
        approve: d.approve,
        feedback: d.note,
        // An approved plan hands over the lead's mode.
        permission_mode: d.approve && d.permissionMode ? modeAfterPlan(d.permissionMode) : undefined,
      }) satisfies ResponseDraft,
  },
  notice: (e) =>
    `${header(e, e.request_id)} ${e.from} asks you to approve this plan:\n${e.plan.trim()}\n` +
    `Answer with plan_approval_response(request_id="${e.request_id}", approve=true|false, feedback="…").`,
  line: (e) => `asks to approve a plan (${e.request_id}): ${summarize(e.plan)}`,
});

function responseNotice(e: z.output<typeof Response>): string {
  if (!e.approve) {
    // Seed 000: a rejection without feedback still tells the teammate what to do.
    const feedback = e.feedback?.trim() || 'Plan needs revision';
    return `${header(e, e.request_id)} ${sentence(`Your plan was rejected: ${feedback}`)} Revise it and submit it again.`;
  }
  const mode = e.permission_mode ? ` (permission mode: ${e.permission_mode})` : '';
  return `${header(e, e.request_id)} ${sentence(`Your plan was approved${mode}${colon(e.feedback)}`)} Go ahead.`;
}

export const planResponse = defineKind(Response, {
  direction: 'from_lead',
  role: { class: 'response', request: 'plan_approval_request', note: (e) => e.feedback },
  notice: responseNotice,
  // The decision changes what the harness allows: approved, plan mode ends; rejected too often, no resubmission.
  atTeammate: (e, state) => {
    if (e.approve) {
      // Already out of plan mode by the human's mode_set: the approval does not undo their choice.
      const inherited = state.planApproved && state.mode !== 'plan' ? state.mode : modeAfterPlan(e.permission_mode);
      return {
        state: { ...state, planApproved: true, mode: inherited },
        notice: `${responseNotice(e)} You may now carry out the plan (permission mode: ${inherited}).`,
      };
    }
    const rejections = state.planRejections + 1;
    return {
      state: { ...state, planRejections: rejections },
      notice:
        rejections >= MAX_PLAN_REJECTIONS
          ? `${responseNotice(e)} Your plan has been rejected ${rejections} times; do not submit it again. Send the lead a message explaining what you need, then wait.`
          : responseNotice(e),
    };
  },
  line: (e) => (e.approve ? `approved the plan${colon(e.feedback)} (${e.request_id})` : `rejected the plan${colon(e.feedback)} (${e.request_id})`),
});
