import type * as z from 'zod';
import { describeIssues, inertLine } from '../../lib/index.js';
import { untilAnswered, type RedisTeam } from './redis-team.js';
import { rangeEntries, type StreamEntry } from './stream-entries.js';

/**
 * Records kept as the entries of a Redis stream, one JSON value in one field each: the
 * journals (requests, tasks), the audit log, session journals. The stream's order is the order
 * of records; an entry that cannot be read (not written by this store, or damaged) is reported
 * by its id and skipped, never fatal.
 */

/** The field of an entry that holds its record, as JSON text. */
export const RECORD_FIELD = 'r';

/** Entries read per XRANGE: a long stream is read a page at a time. */
const PAGE = 1_000;

/** An entry read as a record, or why it is not one; `ref` names the entry for a person to find it. */
export type StreamRecord<T> = { ok: true; id: string; value: T } | { ok: false; id: string; ref: string; reason: string };

/** Where an entry of `key` is, as a problem names it. */
export function entryRef(key: string, id: string): string {
  return `${key} entry ${id}`;
}

/** One entry of `key` as a record of `schema`, or why not. Never throws. */
export function readRecord<T>(key: string, entry: StreamEntry, schema: z.ZodType<T>): StreamRecord<T> {
  const problem = (reason: string): StreamRecord<T> => ({ ok: false, id: entry.id, ref: entryRef(key, entry.id), reason });
  const text = entry.fields?.get(RECORD_FIELD);
  if (text === undefined) return problem(`not a record (it has no '${RECORD_FIELD}' field)`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return problem('not valid JSON (torn or corrupt record)');
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, id: entry.id, value: parsed.data } : problem(inertLine(describeIssues(parsed.error, 'record')));
}

/** Every entry of `key` (after id `after`, when given), oldest first, read a page at a time. */
export async function allEntries(redis: RedisTeam, key: string, after?: string): Promise<StreamEntry[]> {
  const all: StreamEntry[] = [];
  for (let from = after === undefined ? '-' : `(${after}`; ; ) {
    const page = rangeEntries(await untilAnswered(redis.client, () => redis.client.sendCommand(['XRANGE', key, from, '+', 'COUNT', String(PAGE)])));
    all.push(...page);
    const last = page.at(-1);
    if (page.length < PAGE || last === undefined) return all;
    from = `(${last.id}`;
  }
}

/**
 * Append `record` to `key`. Sent again if the connection drops before the reply, so the record
 * may then be stored twice: for the requests and tasks harmless (their events name themselves,
 * and a fold counts one once); for the audit log a repeated entry, which says more than a lost
 * one. (Session journals are not sent this way: a record twice would be replayed twice.)
 */
export async function appendRecord(redis: RedisTeam, key: string, record: unknown): Promise<void> {
  const text = JSON.stringify(record);
  await untilAnswered(redis.client, () => redis.client.sendCommand(['XADD', key, '*', RECORD_FIELD, text]));
}

/**
 * A stream read in order by one fold, in this process: each `refresh` reads what was added
 * since the last and hands each entry to `onEntry`, one refresh at a time (two at once would
 * fold the same entries twice). A stream deleted or replaced since (the team deleted and made
 * again) no longer holds the last entry read: `onReset` starts the fold over, and it is read
 * from its start.
 */
export class StreamReader {
  private last: string | undefined;
  private reading: Promise<void> = Promise.resolve();

  constructor(
    private readonly redis: RedisTeam,
    readonly key: string,
    private readonly onEntry: (entry: StreamEntry) => void,
    private readonly onReset: () => void,
  ) {}

  /** Fold in what was added since the last refresh; resolves once it is folded. */
  refresh(): Promise<void> {
    const next = this.reading.then(() => this.readNew());
    this.reading = next.catch(() => undefined);
    return next;
  }

  private async readNew(): Promise<void> {
    for (;;) {
      // From the last entry read, itself included: that it is still there says the stream is the same one.
      const anchor = this.last;
      const page = rangeEntries(await untilAnswered(this.redis.client, () => this.redis.client.sendCommand(['XRANGE', this.key, anchor ?? '-', '+', 'COUNT', String(PAGE)])));
      if (anchor !== undefined && page[0]?.id !== anchor) {
        this.last = undefined;
        this.onReset();
        continue;
      }
      for (const entry of anchor === undefined ? page : page.slice(1)) {
        this.onEntry(entry);
        this.last = entry.id;
      }
      if (page.length < PAGE) return;
    }
  }
}
