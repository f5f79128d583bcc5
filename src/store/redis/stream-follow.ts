import { setTimeout as pause } from 'node:timers/promises';
import { asError } from '../../lib/index.js';
import { connectRedis, type RedisClient, type RedisTarget } from './connection.js';
import { isPassing, pauseAfter } from './redis-team.js';
import { rangeEntries, streamsEntries, type StreamEntry } from './stream-entries.js';

/** A stream to follow, and the id after which to start ('0-0': from its first entry). */
export type FollowedStream = { key: string; after: string };

/** What one read brought: each followed stream's new entries, in the order the streams were given. */
export type FollowedEntries = { key: string; entries: StreamEntry[] }[];

export type StreamFollow = { close(): Promise<void> };

/** Entries taken per stream and read: bounds a batch's memory. */
const READ_COUNT = 500;
/**
 * How long one XREAD waits before it is sent again. A read blocked for good would not notice a
 * connection that died silently (a machine asleep, a cable pulled); this bounds the wait.
 */
const BLOCK_MS = 5_000;
/** After an error the server itself answered (not a dropped connection), before reading again. */
const RETRY_MS = 200;

/**
 * The id of `key`'s newest entry, or '0-0' when it has none: where to follow it from to see only
 * what comes next. ('$' is no substitute: a second XREAD with '$' would skip what was added
 * between the two.)
 */
export async function streamTail(client: RedisClient, key: string): Promise<string> {
  const [last] = rangeEntries(await client.sendCommand(['XREVRANGE', key, '+', '-', 'COUNT', '1']), 'XREVRANGE');
  return last?.id ?? '0-0';
}

/**
 * Follow one or more streams from given ids with blocking XREADs on a connection of its own
 * (a blocked read holds its connection; the store's other commands must not wait behind it).
 * `onEntries` gets each read's entries and is awaited before the next read, so what it does
 * happens in stream order. A dropped connection is not a problem: the client reconnects and the
 * next read waits for it, from where the last one got to, so nothing is missed or repeated.
 * Errors the server answers, entries it returns in an unknown shape and what `onEntries` throws
 * go to `onProblem`, and the follow goes on. `close()` ends a blocked read at once (by ending its
 * connection) and leaves no timer or socket behind.
 */
export async function followStreams(
  target: RedisTarget,
  streams: readonly FollowedStream[],
  onEntries: (entries: FollowedEntries) => void | Promise<void>,
  onProblem: (error: Error) => void,
): Promise<StreamFollow> {
  if (streams.length === 0) throw new Error('followStreams: no stream to follow');
  const client = await connectRedis(target);
  const positions = new Map(streams.map((stream) => [stream.key, stream.after]));
  const keys = [...positions.keys()];
  const stop = new AbortController();
  /** While `onEntries` runs: a close from inside it must not wait for the loop that waits for it. */
  let inCallback = false;

  const readOnce = async (): Promise<void> => {
    let reply: unknown;
    try {
      const after = keys.map((key) => positions.get(key) ?? '0-0');
      reply = await client.sendCommand(['XREAD', 'COUNT', String(READ_COUNT), 'BLOCK', String(BLOCK_MS), 'STREAMS', ...keys, ...after]);
    } catch (error) {
      if (stop.signal.aborted) return;
      // Redis away for now (the connection dropped, the server still loading): read again once it is back.
      if (isPassing(error)) return pauseAfter(error, stop.signal);
      onProblem(asError(error));
      await pause(RETRY_MS, undefined, { signal: stop.signal }).catch(() => undefined);
      return;
    }
    let read: Map<string, StreamEntry[]>;
    try {
      read = streamsEntries(reply);
    } catch (error) {
      onProblem(asError(error));
      await pause(RETRY_MS, undefined, { signal: stop.signal }).catch(() => undefined);
      return;
    }
    const batch: FollowedEntries = [];
    for (const key of keys) {
      const entries = read.get(key) ?? [];
      const last = entries.at(-1);
      if (last === undefined) continue;
      positions.set(key, last.id);
      batch.push({ key, entries });
    }
    if (batch.length === 0) return;
    inCallback = true;
    try {
      await onEntries(batch);
    } catch (error) {
      onProblem(asError(error));
    } finally {
      inCallback = false;
    }
  };

  const loop = (async () => {
    while (!stop.signal.aborted) await readOnce();
  })();

  return {
    async close() {
      if (!stop.signal.aborted) {
        stop.abort();
        // Ends a read blocked on the server at once: its promise rejects, and the loop sees `stop`.
        client.destroy();
      }
      if (!inCallback) await loop;
    },
  };
}
