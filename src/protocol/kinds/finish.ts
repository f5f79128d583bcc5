import * as z from 'zod';
import { envelopeOf, RequestId } from '../fields.js';
import { newRequestId } from '../ids.js';
import { LEAD } from '../names.js';
import { defineKind, responseTo, type DraftOf } from './spec.js';
import { colon, header, isBlank, sentence } from './text.js';

/**
 * Seed 002, protocol 3: a teammate says its work is done and asks to be ended. The human
 * approves (its process ends), or sends it back with what to continue with.
 */

const Response = envelopeOf('finish_response', { request_id: RequestId, approve: z.boolean(), feedback: z.string().optional() });
type ResponseDraft = DraftOf<typeof Response>;
const Request = envelopeOf('finish_request', { request_id: RequestId, summary: z.string().min(1, 'summary is empty') });

/** A teammate's request to be ended, addressed to the lead, under a new request id. */
export function finishRequestDraft(from: string, summary: string): DraftOf<typeof Request> {
  return { type: 'finish_request', from, to: LEAD, request_id: newRequestId(finishRequest.role.kind), summary };
}

export const finishRequest = defineKind(Request, {
  direction: 'to_lead',
  role: {
    class: 'request',
    kind: 'finish',
    response: 'finish_response',
    deadlineMs: 10 * 60_000,
    subject: (e) => e.summary,
    expire: (r, waited) => ({
      response: responseTo(r, {
        type: 'finish_response',
        approve: false,
        feedback: `No answer to your request to be ended came within ${waited}, so you are not ended. Stay idle and wait for instructions from ${r.to}.`,
      }) satisfies ResponseDraft,
      note: `no answer within ${waited}; not ended, told to stay idle and wait`,
    }),
    humanDecides: () => true,
    answer: (r, d) => responseTo(r, { type: 'finish_response', approve: d.approve, feedback: d.note }) satisfies ResponseDraft,
  },
  notice: (e) =>
    `${header(e, e.request_id)} ${sentence(`${e.from} says its work is done and asks to be ended${colon(e.summary)}`)} ` +
    `Answer with finish_response(request_id="${e.request_id}", approve=true) to end it, ` +
    `or approve=false with feedback saying what to continue with.`,
  line: (e) => `asks to finish: ${e.summary} (${e.request_id})`,
});

function responseNotice(e: z.output<typeof Response>): string {
  return e.approve
    ? `${header(e, e.request_id)} ${sentence(`The lead accepted your work${colon(e.feedback)}`)} Your session ends now; stop here.`
    : `${header(e, e.request_id)} ${sentence(`The lead asks you to continue${colon(e.feedback)}`)}`;
}

export const finishResponse = defineKind(Response, {
  direction: 'from_lead',
  role: { class: 'response', request: 'finish_request', note: (e) => e.feedback },
  content: {
    rule: 'rejection_needs_feedback',
    check: (e) => (!e.approve && isBlank(e.feedback) ? 'feedback is required when rejecting a finish request: say what to continue with' : undefined),
  },
  notice: responseNotice,
  // Approved, the teammate stops once the step under way is done.
  atTeammate: (e, state) => ({ state: e.approve ? { ...state, stopping: 'finish' } : state, notice: responseNotice(e) }),
  line: (e) => (e.approve ? `accepted the work${colon(e.feedback)} (${e.request_id})` : `asks to continue${colon(e.feedback)} (${e.request_id})`),
});
