import { REQUEST_KIND_NAMES, type Draft, type RequestKind, type ResponseType } from './messages.js';
import { requestRole } from './kinds/index.js';
import type { RequestRecord } from './request-records.js';

/**
 * What a deadline means for each kind of request, as its kind's file says. Pure policy:
 * callers (the lead's sweep) do the sending; this only says who is told what.
 */

export type Deadlines = Record<RequestKind, number>;
export type DeadlineOverrides = Partial<Deadlines>;

/** Each request kind's deadline, as its kind's file declares it. */
export const DEFAULT_DEADLINES_MS: Readonly<Deadlines> = Object.fromEntries(
  REQUEST_KIND_NAMES.map((kind) => [kind, requestRole(kind).deadlineMs]),
) as Deadlines;

/** The defaults with a team's overrides (config `deadlines_ms`) on top. */
export function resolveDeadlines(overrides: DeadlineOverrides = {}): Deadlines {
  const merged: Deadlines = { ...DEFAULT_DEADLINES_MS };
  for (const kind of REQUEST_KIND_NAMES) {
    const override = overrides[kind];
    if (override !== undefined) merged[kind] = override;
  }
  return merged;
}

/** When a request of `kind` opened at `createdAt` lapses. */
export function deadlineAt(kind: RequestKind, createdAt: string, overrides?: DeadlineOverrides): string {
  return new Date(Date.parse(createdAt) + resolveDeadlines(overrides)[kind]).toISOString();
}

/** The response an expired request gets, as the requester would have got it from the decider. */
export type ExpiryResponse = Extract<Draft, { type: ResponseType }>;

/**
 * Who is told what when a request expires: the requester gets a protocol `response`, as if
 * the decider had answered, or nobody is answered and `recipient` gets a plain `notice`.
 */
export type ExpiryOutcome = {
  /** One line for the journal note of the expiry and the audit log. */
  note: string;
  recipient: string;
} & ({ response: ExpiryResponse; notice?: undefined } | { notice: string; response?: undefined });

/** "60 s", "5 min", "1 h 30 min": how long the decider had, for the texts below. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** What expiry of `record` means. The requester is `record.from`; the decider who stayed silent is `record.to`. */
export function expiryOutcome(record: RequestRecord): ExpiryOutcome {
  const waited = formatDuration(Date.parse(record.deadline_at) - Date.parse(record.created_at));
  const expiry = requestRole(record.kind).expire(record, waited);
  // The sweep parses the response with the envelope's schema before it is delivered.
  return expiry.response ? { note: expiry.note, recipient: expiry.response.to, response: expiry.response as ExpiryResponse } : { note: expiry.note, recipient: expiry.to, notice: expiry.notice };
}
