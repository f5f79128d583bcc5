import type { Envelope } from '../../protocol/index.js';
import type { ObserveOptions } from '../transport.js';
import { readMailboxEntry } from './mailbox-entry.js';
import type { Closable, RedisTeam } from './redis-team.js';
import { rangeEntries, type StreamEntry } from './stream-entries.js';
import { followStreams, streamTail } from './stream-follow.js';

/**
 * Watch `agent`'s mailbox without consuming it: its history (the handled stream) and what waits
 * in it (the mailbox stream holds exactly the unread), then both as they grow, each message
 * once. The history's end is noted before the unread are read: a message taken in between is
 * found in the history as it is followed, never lost between the two.
 */
export async function observeRedisMailbox(
  redis: RedisTeam,
  agent: string,
  listener: (messages: Envelope[]) => void,
  options: ObserveOptions,
  onProblem: (error: Error) => void,
): Promise<Closable> {
  const history = redis.keys.handled(agent);
  const mailbox = redis.keys.mailbox(agent);
  const seen = new Set<string>();
  const report = (entries: readonly StreamEntry[]) => {
    const fresh: Envelope[] = [];
    for (const entry of entries) {
      const read = readMailboxEntry(entry);
      // What cannot be read is the consumer's to set aside; an observer shows messages only.
      if (read.kind !== 'message' || seen.has(read.envelope.id)) continue;
      seen.add(read.envelope.id);
      fresh.push(read.envelope);
    }
    if (fresh.length > 0) listener(fresh);
  };

  const handled = options.from === 'history' ? rangeEntries(await redis.client.sendCommand(['XRANGE', history, '-', '+'])) : [];
  const historyAfter = options.from === 'history' ? (handled.at(-1)?.id ?? '0-0') : await streamTail(redis.client, history);
  const waiting = rangeEntries(await redis.client.sendCommand(['XRANGE', mailbox, '-', '+']));
  // Handled first, in the order handled; then the waiting ones, in the order sent.
  report([...handled, ...waiting]);
  const follow = await followStreams(
    redis.target,
    [
      { key: history, after: historyAfter },
      { key: mailbox, after: waiting.at(-1)?.id ?? '0-0' },
    ],
    (batches) => report(batches.flatMap((batch) => batch.entries)),
    onProblem,
  );
  return redis.keep(follow);
}
