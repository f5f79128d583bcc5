import type { RequestRecord, RequestState, TransitionResult } from '../../protocol/index.js';
import { RequestEvent, RequestFold } from '../request-fold.js';
import type { NewRequest, RequestFilter, RequestStore, StoredProblem, Subscription, WatchProblem } from '../team-store.js';
import type { RedisTeam } from './redis-team.js';
import { serverNow } from './server-clock.js';
import type { StreamEntry } from './stream-entries.js';
import { watchJournal } from './journal-watch.js';
import { appendRecords, entryRef, readRecord, StreamReader } from './stream-journal.js';

/**
 * The requests on Redis: the fold of request-fold.ts over one stream, the team's journal of
 * request events. XADD order is the order of events, as O_APPEND order is for the file store; a
 * writer reads the stream again after its append to learn whether its event won, so two
 * processes deciding one request at once get one winner everywhere. Decisions are stamped by
 * the server's clock, the one clock of a team across machines.
 */
export class RedisRequests implements RequestStore {
  private fold: RequestFold;
  private readonly reader: StreamReader;
  /** Entries that could not be read, and events that name no request: skipped, kept for a person to look at. */
  private setAside: StoredProblem[] = [];

  constructor(private readonly redis: RedisTeam) {
    const key = redis.keys.requests;
    const where = `${redis.target.shown} ${key}`;
    this.fold = new RequestFold(where);
    this.reader = new StreamReader(redis, key, (entry) => this.foldEntry(entry), () => {
      this.fold = new RequestFold(where);
      this.setAside = [];
    });
  }

  private foldEntry(entry: StreamEntry): void {
    const read = readRecord(this.reader.key, entry, RequestEvent);
    if (!read.ok) {
      this.setAside.push({ ref: read.ref, reason: read.reason });
      return;
    }
    const reason = this.fold.apply(read.value);
    if (reason !== undefined) this.setAside.push({ ref: entryRef(this.reader.key, read.id), reason });
  }

  /** Append one event and fold it in with everything before it. */
  private async append(event: RequestEvent): Promise<void> {
    await appendRecords(this.redis, this.reader.key, [event]);
    await this.reader.refresh();
  }

  async open(request: NewRequest): Promise<RequestRecord> {
    await this.reader.refresh();
    const event = this.fold.openEvent(request);
    await this.append(event);
    return this.fold.opened(event);
  }

  async transition(requestId: string, to: RequestState, by: string, note?: string): Promise<TransitionResult> {
    const at = (await serverNow(this.redis.client)).toISOString();
    await this.reader.refresh();
    const made = this.fold.transitionEvent(requestId, to, by, note, at);
    if (!made.ok) return made;
    await this.append(made.event);
    return this.fold.transitioned(made.event);
  }

  async get(requestId: string): Promise<RequestRecord | undefined> {
    await this.reader.refresh();
    return this.fold.get(requestId);
  }

  async list(filter?: RequestFilter): Promise<RequestRecord[]> {
    await this.reader.refresh();
    return this.fold.list(filter);
  }

  /** What could not be read or named no request, in the order found. */
  async problems(): Promise<StoredProblem[]> {
    await this.reader.refresh();
    return [...this.setAside];
  }

  async watch(listener: (records: RequestRecord[]) => void, onProblem: WatchProblem): Promise<Subscription> {
    return watchJournal(this.redis, this.reader.key, async () => listener(await this.list()), onProblem);
  }
}
