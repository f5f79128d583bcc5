import { type TransitionResult, RequestRecord, RequestState } from '../../protocol/index.js';
import { appendLines, readLines } from './jsonl.js';
import { RequestEvent, RequestFold } from '../request-fold.js';
import type { NewRequest, RequestFilter } from '../team-store.js';

/**
 * The file store's requests: the fold of request-fold.ts over an append-only journal
 * (requests.jsonl) that several processes (lead, teammates, the CLI) write at once. There is no
 * lock: O_APPEND order is the order of events, and a writer confirms it won by re-reading after
 * its append. Here: reading and appending lines, and reporting the lines that cannot be read.
 */

/** A journal line that was set aside, or a tail not yet complete. `offset` is the byte where it starts. */
export type TrackerProblem = { offset?: number; reason: string };

export class RequestJournal {
  private offset = 0;
  private fold: RequestFold;
  private setAside: TrackerProblem[] = [];
  private tornAt: number | undefined;

  constructor(readonly path: string) {
    this.fold = new RequestFold(path);
  }

  /** Fold in whatever was appended since the last read: cheap, since it reads only the new bytes. */
  refresh(): void {
    let read = readLines(this.path, RequestEvent, this.offset);
    if (read.nextOffset < this.offset) {
      // The journal shrank: it was replaced or truncated by hand, so the fold starts over.
      this.offset = 0;
      this.fold = new RequestFold(this.path);
      this.setAside = [];
      read = readLines(this.path, RequestEvent, 0);
    }
    for (const problem of read.problems) this.setAside.push({ offset: problem.offset, reason: problem.reason });
    for (const event of read.records) {
      const reason = this.fold.apply(event);
      if (reason !== undefined) this.setAside.push({ reason });
    }
    this.offset = read.nextOffset;
    this.tornAt = read.tornTail ? read.nextOffset : undefined;
  }

  /** Lines set aside (corrupt, or not a journal event) and an incomplete tail, if any. Never fatal. */
  problems(): TrackerProblem[] {
    this.refresh();
    const torn = this.tornAt === undefined ? [] : [{ offset: this.tornAt, reason: 'incomplete last line (still being written, or torn by a crash); skipped until complete' }];
    return [...this.setAside, ...torn];
  }

  /** Record a new pending request. Throws on invalid fields or a request_id already taken. */
  open(input: NewRequest): RequestRecord {
    this.refresh();
    const event = this.fold.openEvent(input);
    this.append(event);
    return this.fold.opened(event);
  }

  /**
   * Move a pending request to a final state. Refused (not thrown) when the request is unknown,
   * already final, or, for expiry, not yet due; also when another process's decision landed
   * in the journal just before ours: theirs stands and the error says what it was.
   */
  transition(requestId: string, to: RequestState, by: string, note?: string): TransitionResult {
    this.refresh();
    const made = this.fold.transitionEvent(requestId, to, by, note, new Date().toISOString());
    if (!made.ok) return made;
    this.append(made.event);
    return this.fold.transitioned(made.event);
  }

  /** Append one event (validated as our own fold will read it) and fold it in with anything before it. */
  private append(event: RequestEvent): void {
    appendLines(this.path, [RequestEvent.parse(event)]);
    this.refresh();
  }

  get(requestId: string): RequestRecord | undefined {
    this.refresh();
    return this.fold.get(requestId);
  }

  /** Requests matching every given filter, oldest first; `involving` matches the requester or the decider. */
  list(filter: RequestFilter = {}): RequestRecord[] {
    this.refresh();
    return this.fold.list(filter);
  }
}
