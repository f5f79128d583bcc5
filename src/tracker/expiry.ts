import { REQUEST_KINDS, type Draft, type RequestKind, type ResponseType } from '../protocol/messages.js';
import { LEAD } from '../protocol/names.js';
import type { RequestRecord } from './records.js';

/**
 * What a deadline means for each kind of request. Pure policy: callers (the lead's sweep)
 * do the sending; this only says who is told what.
 */

export type Deadlines = Record<RequestKind, number>;
export type DeadlineOverrides = Partial<Deadlines>;

export const DEFAULT_DEADLINES_MS: Readonly<Deadlines> = {
  plan: 10 * 60_000,
  permission: 5 * 60_000,
  shutdown: 60_000,
  finish: 10 * 60_000,
};

/** The defaults with a team's overrides (config `deadlines_ms`) on top. */
export function resolveDeadlines(overrides: DeadlineOverrides = {}): Deadlines {
  const merged: Deadlines = { ...DEFAULT_DEADLINES_MS };
  for (const kind of Object.keys(REQUEST_KINDS) as RequestKind[]) {
    const override = overrides[kind];
    if (override !== undefined) merged[kind] = override;
  }
  return merged;
}

/** When a request of `kind` opened at `createdAt` lapses. */
export function deadlineAt(kind: RequestKind, createdAt: string, overrides?: DeadlineOverrides): string {
  return new Date(Date.parse(createdAt) + resolveDeadlines(overrides)[kind]).toISOString();
}

export type ResponseDraft = Extract<Draft, { type: ResponseType }>;

/**
 * Who is told what when a request expires: the requester gets a protocol `response`, as if
 * the decider had answered, or (shutdown) nobody is answered and the lead gets a plain `notice`.
 */
export type ExpiryOutcome = {
  /** One line for the journal note of the expiry and the audit log. */
  note: string;
  recipient: string;
} & ({ response: ResponseDraft; notice?: undefined } | { notice: string; response?: undefined });

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
  const id = record.request_id;
  const answer = { from: record.to, to: record.from, request_id: id, approve: false } as const;
  switch (record.kind) {
    case 'plan':
      return {
        recipient: record.from,
        response: {
          ...answer,
          type: 'plan_approval_response',
          feedback: `No decision came in time: the plan was not approved within ${waited}, so it counts as rejected. Do not start that work; revise and resubmit the plan, or ask ${record.to}.`,
        },
        note: `no decision within ${waited}; the plan counts as rejected`,
      };
    case 'permission':
      return {
        recipient: record.from,
        response: {
          ...answer,
          type: 'permission_response',
          feedback: `Permission request timed out after ${waited} with no decision, so it is denied. Do not run it; ask again if it is still needed.`,
        },
        note: `no decision within ${waited}; permission denied`,
      };
    case 'finish':
      return {
        recipient: record.from,
        response: {
          ...answer,
          type: 'finish_response',
          feedback: `No answer to your request to be ended came within ${waited}, so you are not ended. Stay idle and wait for instructions from ${record.to}.`,
        },
        note: `no answer within ${waited}; not ended, told to stay idle and wait`,
      };
    case 'shutdown':
      // Shutting a teammate down needs its consent; silence is not consent, so it keeps running.
      return {
        recipient: LEAD,
        notice: `Shutdown request '${id}' to ${record.to} got no answer within ${waited} and lapsed; ${record.to} keeps running. Send a new shutdown request if it should still stop.`,
        note: `no answer within ${waited}; lapsed, ${record.to} keeps running`,
      };
  }
}
