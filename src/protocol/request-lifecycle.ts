import type { RequestRecord, RequestState } from './request-records.js';

/**
 * The request state machine, as a pure function: pending → approved | rejected | expired | cancelled.
 * Every process folds the same journal through this same function, so they all agree on
 * which transition won; it must therefore depend only on its arguments (no clock, no I/O).
 */

export type TransitionResult = { ok: true; record: RequestRecord } | { ok: false; error: string };

export function transition(
  record: RequestRecord,
  to: RequestState,
  by: string,
  note: string | undefined,
  at: string,
): TransitionResult {
  const id = record.request_id;
  if (to === 'pending') return { ok: false, error: `request '${id}' cannot be moved back to pending` };
  if (record.state !== 'pending') {
    const error =
      record.state === to
        ? `request '${id}' was already ${to}`
        : `request '${id}' was already ${record.state} and can no longer be ${to}`;
    return { ok: false, error };
  }
  if (by.trim() === '') return { ok: false, error: `request '${id}' cannot be ${to} by nobody (empty decider)` };
  // Expiring early would answer for a decider who still had time; the sweep's clock is the event's `at`.
  if (to === 'expired' && Date.parse(at) < Date.parse(record.deadline_at)) {
    return { ok: false, error: `request '${id}' is not due until ${record.deadline_at} and cannot expire yet` };
  }
  const next: RequestRecord = { ...record, state: to, decided_at: at, decided_by: by };
  if (note !== undefined) next.note = note;
  return { ok: true, record: next };
}
