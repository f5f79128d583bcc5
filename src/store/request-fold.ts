import * as z from 'zod';
import { newMessageId, transition as applyTransition, type TransitionResult, RequestRecord, RequestState } from '../protocol/index.js';
import { describeIssues } from '../lib/index.js';
import type { NewRequest, RequestFilter } from './team-store.js';

/**
 * The requests as a fold of a journal of events, the same for every backend (the file store's
 * requests.jsonl, the Redis store's stream). The journal's order is the order of events; the
 * fold keeps the first open of each id and the first legal transition of each request, and
 * ignores the rest. A writer makes its event here, appends it, folds in what the journal then
 * holds and asks here whether its event was the one kept: two processes deciding one request at
 * once get exactly one winner, and every reader agrees on it. Only the appending and reading
 * are the backend's.
 */

const timestamp = z.iso.datetime({ offset: true });

const OpenedFields = RequestRecord.pick({
  request_id: true,
  kind: true,
  from: true,
  to: true,
  created_at: true,
  deadline_at: true,
  summary: true,
  tool: true,
});

const OpenedEvent = z.object({ event: z.literal('opened'), event_id: z.string().min(1), record: OpenedFields });
const TransitionEvent = z.object({
  event: z.literal('transition'),
  event_id: z.string().min(1),
  request_id: RequestRecord.shape.request_id,
  to: RequestState,
  by: z.string().min(1),
  note: z.string().optional(),
  at: timestamp,
});

/** Each event names itself, so a writer can tell its own event from a concurrent twin. */
export const RequestEvent = z.discriminatedUnion('event', [OpenedEvent, TransitionEvent]);
export type RequestEvent = z.infer<typeof RequestEvent>;
/** A writer's open of a request, as it appends it. */
export type RequestOpening = z.infer<typeof OpenedEvent>;
/** A writer's decision of a request, as it appends it. */
export type RequestDecision = z.infer<typeof TransitionEvent>;

type Entry = { record: RequestRecord; openedBy: string; decidedBy?: string };

function takenError(existing: RequestRecord): Error {
  return new Error(`request_id '${existing.request_id}' is already taken (a ${existing.kind} request from ${existing.from} to ${existing.to})`);
}

export class RequestFold {
  private readonly entries = new Map<string, Entry>();
  /** Events already folded: one appended twice (a retry after a lost reply) counts once, where it first stands. */
  private readonly seen = new Set<string>();

  /** `where` names the journal in errors, for a person to find it. */
  constructor(private readonly where: string) {}

  /** Fold in the journal's next event. Returns why it was set aside, when it names no request; a lost race is no problem. */
  apply(event: RequestEvent): string | undefined {
    if (this.seen.has(event.event_id)) return undefined;
    this.seen.add(event.event_id);
    if (event.event === 'opened') {
      // A second open of the same id lost the race; its writer sees that on its re-read.
      if (!this.entries.has(event.record.request_id)) {
        this.entries.set(event.record.request_id, { record: { ...event.record, state: 'pending' }, openedBy: event.event_id });
      }
      return undefined;
    }
    const entry = this.entries.get(event.request_id);
    if (!entry) return `transition of unknown request_id '${event.request_id}' to ${event.to} ignored`;
    const result = applyTransition(entry.record, event.to, event.by, event.note, event.at);
    if (result.ok) {
      entry.record = result.record;
      entry.decidedBy = event.event_id;
    }
    return undefined;
  }

  /** The event that opens `input`, to append. Throws on invalid fields or a request_id already taken. */
  openEvent(input: NewRequest): RequestOpening {
    const parsed = OpenedFields.safeParse(input);
    if (!parsed.success) throw new Error(`cannot open request '${String(input.request_id)}': ${describeIssues(parsed.error, 'request')}`);
    const fields = parsed.data;
    if (Date.parse(fields.deadline_at) < Date.parse(fields.created_at)) {
      throw new Error(`cannot open request '${fields.request_id}': deadline_at ${fields.deadline_at} is before created_at ${fields.created_at}`);
    }
    const taken = this.entries.get(fields.request_id);
    if (taken) throw takenError(taken.record);
    return OpenedEvent.parse({ event: 'opened', event_id: newMessageId(), record: fields });
  }

  /** After `event` (from openEvent) was appended and folded: the new request, or why another open of its id stands. */
  opened(event: RequestOpening): RequestRecord {
    const entry = this.entries.get(event.record.request_id);
    if (!entry) throw new Error(`request '${event.record.request_id}' was written but is not in ${this.where}; see problems()`);
    // Another process opened the same id just before us: the first open stands.
    if (entry.openedBy !== event.event_id) throw takenError(entry.record);
    return { ...entry.record };
  }

  /**
   * The event that moves a pending request to a final state at `at`, to append; or why not:
   * the request is unknown, already final, or, for expiry, not yet due.
   */
  transitionEvent(requestId: string, to: RequestState, by: string, note: string | undefined, at: string): { ok: true; event: RequestDecision } | { ok: false; error: string } {
    if (!RequestState.safeParse(to).success) return { ok: false, error: `'${String(to)}' is not a request state (${RequestState.options.join(', ')})` };
    const entry = this.entries.get(requestId);
    if (!entry) return { ok: false, error: `unknown request_id '${requestId}'` };
    const check = applyTransition(entry.record, to, by, note, at);
    if (!check.ok) return check;
    return { ok: true, event: TransitionEvent.parse({ event: 'transition', event_id: newMessageId(), request_id: requestId, to, by, note, at }) };
  }

  /**
   * After `event` (from transitionEvent) was appended and folded: the decided request, or, when
   * another process's decision landed just before ours, the refusal saying what it was.
   */
  transitioned(event: RequestDecision): TransitionResult {
    const after = this.entries.get(event.request_id);
    if (!after) return { ok: false, error: `unknown request_id '${event.request_id}'` };
    if (after.decidedBy === event.event_id) return { ok: true, record: { ...after.record } };
    const lost = applyTransition(after.record, event.to, event.by, event.note, event.at);
    return lost.ok ? { ok: false, error: `request '${event.request_id}': the decision was written but is not in ${this.where}; see problems()` } : lost;
  }

  get(requestId: string): RequestRecord | undefined {
    const record = this.entries.get(requestId)?.record;
    return record && { ...record };
  }

  /** Requests matching every given filter, oldest first; `involving` matches the requester or the decider. */
  list(filter: RequestFilter = {}): RequestRecord[] {
    const matching: RequestRecord[] = [];
    for (const { record } of this.entries.values()) {
      if (filter.state !== undefined && record.state !== filter.state) continue;
      if (filter.kind !== undefined && record.kind !== filter.kind) continue;
      if (filter.involving !== undefined && record.from !== filter.involving && record.to !== filter.involving) continue;
      matching.push({ ...record });
    }
    // Stable: requests opened in the same millisecond keep journal order.
    return matching.sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  }
}
