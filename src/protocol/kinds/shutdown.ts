import * as z from 'zod';
import { envelopeOf, RequestId } from '../fields.js';
import { LEAD } from '../names.js';
import { defineKind } from './spec.js';
import { colon, header, isBlank, sentence } from './text.js';

/**
 * Seed protocol 3: the lead asks a teammate to shut down; the teammate agrees, or refuses
 * with a reason and keeps working. Silence is not consent: on expiry it keeps running.
 */

export const shutdownRequest = defineKind(envelopeOf('shutdown_request', { request_id: RequestId, reason: z.string().optional() }), {
  direction: 'from_lead',
  role: {
    class: 'request',
    kind: 'shutdown',
    response: 'shutdown_response',
    deadlineMs: 60_000,
    subject: (e) => e.reason ?? 'shut down',
    expire: (r, waited) => ({
      to: LEAD,
      notice: `Shutdown request '${r.request_id}' to ${r.to} got no answer within ${waited} and lapsed; ${r.to} keeps running. Send a new shutdown request if it should still stop.`,
      note: `no answer within ${waited}; lapsed, ${r.to} keeps running`,
    }),
    humanDecides: () => false,
    answer: { refused: 'the teammate answers it' },
  },
  notice: (e) =>
    `${header(e, e.request_id)} ${sentence(`The lead asks you to shut down${colon(e.reason)}`)} ` +
    `Answer with shutdown_response(request_id="${e.request_id}", approve=true) once your work is saved, ` +
    `or approve=false with a reason to keep working.`,
  line: (e) => `asks to shut down${colon(e.reason)} (${e.request_id})`,
});

const Response = envelopeOf('shutdown_response', { request_id: RequestId, approve: z.boolean(), reason: z.string().optional() });

function responseNotice(e: z.output<typeof Response>): string {
  return e.approve
    ? `${header(e, e.request_id)} ${sentence(`${e.from} agreed to shut down${colon(e.reason)}`)}`
    : `${header(e, e.request_id)} ${sentence(`${e.from} refused to shut down${colon(e.reason)}`)} It keeps working.`;
}

export const shutdownResponse = defineKind(
  Response,
  {
    direction: 'to_lead',
    role: { class: 'response', request: 'shutdown_request', note: (e) => e.reason },
    content: {
      rule: 'rejection_needs_reason',
      check: (e) => (!e.approve && isBlank(e.reason) ? 'reason is required when rejecting a shutdown request: say why you must keep working' : undefined),
    },
    notice: responseNotice,
    line: (e) => (e.approve ? 'agreed to shut down' : `refused to shut down${colon(e.reason)}`),
    // An agreeing teammate's process is about to exit: the supervisor expects it and ends it after the grace period.
    atLead: (e) => (e.approve ? { notice: responseNotice(e), expectExit: e.from } : { notice: responseNotice(e) }),
  },
);
