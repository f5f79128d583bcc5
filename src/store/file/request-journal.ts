import * as z from 'zod';
import { newMessageId, transition as applyTransition, type TransitionResult, RequestRecord, RequestState } from '../../protocol/index.js';
import { appendLines, readLines } from './jsonl.js';
import { describeIssues } from '../../lib/index.js';
import type { NewRequest, RequestFilter } from '../team-store.js';

/**
 * The file store's requests: a fold of an append-only journal (requests.jsonl) that several
 * processes (lead, teammates, the CLI) write at once. There is no lock: O_APPEND order is the order
 * of events, and the fold keeps the first legal transition of each request and ignores the
 * rest. A writer confirms it won by re-reading after its append, so two processes deciding
 * the same request at the same moment get exactly one winner, and every reader agrees on it.
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

/** Each event names itself, so a writer can tell its own event from a concurrent twin. */
const JournalEvent = z.discriminatedUnion('event', [
  z.object({ event: z.literal('opened'), event_id: z.string().min(1), record: OpenedFields }),
  z.object({
    event: z.literal('transition'),
    event_id: z.string().min(1),
    request_id: RequestRecord.shape.request_id,
    to: RequestState,
    by: z.string().min(1),
    note: z.string().optional(),
    at: timestamp,
  }),
]);
type JournalEvent = z.infer<typeof JournalEvent>;

/** A journal line that was set aside, or a tail not yet complete. `offset` is the byte where it starts. */
export type TrackerProblem = { offset?: number; reason: string };

type Entry = { record: RequestRecord; openedBy: string; decidedBy?: string };

function takenError(existing: RequestRecord): Error {
  return new Error(`request_id '${existing.request_id}' is already taken (a ${existing.kind} request from ${existing.from} to ${existing.to})`);
}

export class RequestJournal {
  private offset = 0;
  private entries = new Map<string, Entry>();
  private setAside: TrackerProblem[] = [];
  private tornAt: number | undefined;

  constructor(readonly path: string) {}

  /** Fold in whatever was appended since the last read: cheap, since it reads only the new bytes. */
  refresh(): void {
    let read = readLines(this.path, JournalEvent, this.offset);
    if (read.nextOffset < this.offset) {
      // The journal shrank: it was replaced or truncated by hand, so the fold starts over.
      this.offset = 0;
      this.entries = new Map();
      this.setAside = [];
      read = readLines(this.path, JournalEvent, 0);
    }
    for (const problem of read.problems) this.setAside.push({ offset: problem.offset, reason: problem.reason });
    for (const event of read.records) this.apply(event);
    this.offset = read.nextOffset;
    this.tornAt = read.tornTail ? read.nextOffset : undefined;
  }

  private apply(event: JournalEvent): void {
    if (event.event === 'opened') {
      // A second open of the same id lost the race; its writer sees that on its re-read.
      if (!this.entries.has(event.record.request_id)) {
        this.entries.set(event.record.request_id, { record: { ...event.record, state: 'pending' }, openedBy: event.event_id });
      }
      return;
    }
    const entry = this.entries.get(event.request_id);
    if (!entry) {
      this.setAside.push({ reason: `transition of unknown request_id '${event.request_id}' to ${event.to} ignored` });
      return;
    }
    const result = applyTransition(entry.record, event.to, event.by, event.note, event.at);
    if (result.ok) {
      entry.record = result.record;
      entry.decidedBy = event.event_id;
    }
  }

  /** Lines set aside (corrupt, or not a journal event) and an incomplete tail, if any. Never fatal. */
  problems(): TrackerProblem[] {
    this.refresh();
    const torn = this.tornAt === undefined ? [] : [{ offset: this.tornAt, reason: 'incomplete last line (still being written, or torn by a crash); skipped until complete' }];
    return [...this.setAside, ...torn];
  }

  /** Record a new pending request. Throws on invalid fields or a request_id already taken. */
  open(input: NewRequest): RequestRecord {
    const parsed = OpenedFields.safeParse(input);
    if (!parsed.success) throw new Error(`cannot open request '${String(input.request_id)}': ${describeIssues(parsed.error, 'request')}`);
    const fields = parsed.data;
    if (Date.parse(fields.deadline_at) < Date.parse(fields.created_at)) {
      throw new Error(`cannot open request '${fields.request_id}': deadline_at ${fields.deadline_at} is before created_at ${fields.created_at}`);
    }
    this.refresh();
    const taken = this.entries.get(fields.request_id);
    if (taken) throw takenError(taken.record);
    const event_id = newMessageId();
    this.append({ event: 'opened', event_id, record: fields });
    const entry = this.entries.get(fields.request_id);
    if (!entry) throw new Error(`request '${fields.request_id}' was written but is not in ${this.path}; see problems()`);
    // Another process opened the same id just before us: the first open stands.
    if (entry.openedBy !== event_id) throw takenError(entry.record);
    return { ...entry.record };
  }

  /**
   * Move a pending request to a final state. Refused (not thrown) when the request is unknown,
   * already final, or, for expiry, not yet due; also when another process's decision landed
   * in the journal just before ours: theirs stands and the error says what it was.
   */
  transition(requestId: string, to: RequestState, by: string, note?: string): TransitionResult {
    if (!RequestState.safeParse(to).success) return { ok: false, error: `'${String(to)}' is not a request state (${RequestState.options.join(', ')})` };
    this.refresh();
    const entry = this.entries.get(requestId);
    if (!entry) return { ok: false, error: `unknown request_id '${requestId}'` };
    const at = new Date().toISOString();
    const check = applyTransition(entry.record, to, by, note, at);
    if (!check.ok) return check;
    const event_id = newMessageId();
    this.append({ event: 'transition', event_id, request_id: requestId, to, by, note, at });
    const after = this.entries.get(requestId) ?? entry;
    if (after.decidedBy === event_id) return { ok: true, record: { ...after.record } };
    const lost = applyTransition(after.record, to, by, note, at);
    return lost.ok ? { ok: false, error: `request '${requestId}': the decision was written but is not in ${this.path}; see problems()` } : lost;
  }

  /** Append one event (validated as our own fold will read it) and fold it in with anything before it. */
  private append(event: JournalEvent): void {
    appendLines(this.path, [JournalEvent.parse(event)]);
    this.refresh();
  }

  get(requestId: string): RequestRecord | undefined {
    this.refresh();
    const record = this.entries.get(requestId)?.record;
    return record && { ...record };
  }

  /** Requests matching every given filter, oldest first; `involving` matches the requester or the decider. */
  list(filter: RequestFilter = {}): RequestRecord[] {
    this.refresh();
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
