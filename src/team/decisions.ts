import { type Draft, LEAD, requestRole, type Decision, isOwnRequest, type RequestRecord } from '../protocol/index.js';

export type { Decision } from '../protocol/index.js';

/**
 * The lead's response to a request it was asked to decide (by the human or the lead's
 * model), as the request's kind drafts it, or why there is none (a shutdown request is
 * answered by the teammate).
 */
export function decisionDraft(record: RequestRecord, decision: Decision): { ok: true; draft: Draft } | { ok: false; error: string } {
  if (isOwnRequest(record)) {
    return { ok: false, error: `request '${record.request_id}' is the lead's own; only the lead process that asked takes its decision (teams approve reaches it while it runs)` };
  }
  if (record.to !== LEAD) {
    return { ok: false, error: `request '${record.request_id}' is a ${record.kind} request addressed to ${record.to}; only ${record.to} answers it` };
  }
  const answer = requestRole(record.kind).answer;
  if (typeof answer !== 'function') return { ok: false, error: `request '${record.request_id}' is a ${record.kind} request; ${answer.refused}` };
  // The kind drafts it against its own schema's type; the bus parses it again before sending.
  return { ok: true, draft: answer(record, decision) as Draft };
}
