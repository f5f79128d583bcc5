import { AuditEntry, type AuditDraft } from '../audit.js';
import type { AuditBatch, AuditLog, Subscription } from '../team-store.js';
import type { RedisTeam } from './redis-team.js';
import { serverNow } from './server-clock.js';
import type { StreamEntry } from './stream-entries.js';
import { followStreams } from './stream-follow.js';
import { appendRecords, entriesAfter, readRecord } from './stream-journal.js';

/**
 * The audit log as one stream: an entry per fact, stamped by the server's clock (the one clock
 * of a team across machines), in XADD order. Entries that cannot be read are reported by id.
 */
export class RedisAudit implements AuditLog {
  constructor(private readonly redis: RedisTeam) {}

  private get key(): string {
    return this.redis.keys.audit;
  }

  async append(entry: AuditDraft): Promise<AuditEntry> {
    // A malformed entry is the caller's bug: it throws here, before anything is written.
    const stamped = AuditEntry.parse({ ...entry, at: (await serverNow(this.redis.client)).toISOString() });
    await appendRecords(this.redis, this.key, [stamped]);
    return stamped;
  }

  async read(): Promise<AuditBatch> {
    return this.batchOf(await entriesAfter(this.redis, this.key, '0-0'));
  }

  async follow(listener: (batch: AuditBatch) => void): Promise<Subscription> {
    const backlog = await entriesAfter(this.redis, this.key, '0-0');
    const first = this.batchOf(backlog);
    if (first.entries.length > 0 || first.problems.length > 0) listener(first);
    const after = backlog.at(-1)?.id ?? '0-0';
    // The follow reports what it cannot read as a problem of the log: the listener hears it as one.
    const onProblem = (error: Error) => listener({ entries: [], problems: [{ ref: this.key, reason: error.message }] });
    const follow = await followStreams(this.redis.target, [{ key: this.key, after }], (read) => {
      const batch = this.batchOf(read.flatMap((stream) => stream.entries));
      if (batch.entries.length > 0 || batch.problems.length > 0) listener(batch);
    }, onProblem);
    return this.redis.keep(follow);
  }

  private batchOf(entries: readonly StreamEntry[]): AuditBatch {
    const batch: AuditBatch = { entries: [], problems: [] };
    for (const entry of entries) {
      const read = readRecord(this.key, entry, AuditEntry);
      if (read.ok) batch.entries.push(read.value);
      else batch.problems.push({ ref: read.ref, reason: read.reason });
    }
    return batch;
  }
}
