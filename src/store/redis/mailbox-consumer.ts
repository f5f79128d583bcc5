import { ErrorReply } from '@redis/client';
import type { Envelope } from '../../protocol/index.js';
import { failpoint } from '../failpoint.js';
import type { MailboxEvent, SubscribeOptions } from '../transport.js';
import { connectRedis, type RedisClient } from './connection.js';
import { judgeEntry } from './mailbox-entry.js';
import { MailboxLease } from './mailbox-lease.js';
import { GROUP, takeBatch, type TakeLimits } from './mailbox-take.js';
import { isPassing, pauseAfter, untilAnswered, type Closable, type RedisTeam } from './redis-team.js';
import { streamsEntries, type StreamEntry } from './stream-entries.js';

/** The one consumer name in the group: a restarted consumer is the same consumer, and re-reads what it left pending. */
const CONSUMER = 'consumer';
/** Entries read and taken at once: one script call each. */
const BATCH = 200;
/** How long a read waits for new entries before it looks at its pending ones again. */
const BLOCK_MS = 2_000;

export type RedisConsumerOptions = TakeLimits & {
  leaseMs: number;
  admit: SubscribeOptions['admit'];
  /** What stops the consumer (its lease lost, an error the server answered) and what the listener throws. */
  onError: (error: unknown) => void;
};

/** The mailbox's consumer group, made with the mailbox if need be (a consumer may come before any message). */
async function ensureGroup(client: RedisClient, key: string): Promise<void> {
  try {
    await client.sendCommand(['XGROUP', 'CREATE', key, GROUP, '0', 'MKSTREAM']);
  } catch (error) {
    if (!(error instanceof ErrorReply && error.message.startsWith('BUSYGROUP'))) throw error;
  }
}

/**
 * Consume `agent`'s mailbox: hold its lease, then read, first what this consumer read before and
 * did not take (a consumer killed between read and take), then new entries, blocking on a
 * connection of its own. Each batch is taken in one script (mailbox-take.ts) before anything of
 * it reaches the listener, so a message is recorded as handled exactly once, and handed over
 * at most once.
 */
export async function startRedisConsumer(redis: RedisTeam, agent: string, listener: (event: MailboxEvent) => void, options: RedisConsumerOptions): Promise<Closable> {
  const key = redis.keys.mailbox(agent);
  const lease = await MailboxLease.acquire(redis, agent, options.leaseMs);
  let reader: RedisClient;
  try {
    await ensureGroup(redis.client, key);
    reader = await connectRedis(redis.target);
  } catch (error) {
    await lease.release();
    throw error;
  }
  let stopping = false;

  const emit = (event: MailboxEvent) => {
    try {
      listener(event);
    } catch (error) {
      options.onError(error);
    }
  };

  /** Entries of the group for this consumer: '0' its pending ones, '>' new ones (waiting for some). */
  const read = async (from: '0' | '>'): Promise<StreamEntry[]> => {
    const block = from === '>' ? ['BLOCK', String(BLOCK_MS)] : [];
    try {
      const reply = await reader.sendCommand(['XREADGROUP', 'GROUP', GROUP, CONSUMER, 'COUNT', String(BATCH), ...block, 'STREAMS', key, from]);
      return streamsEntries(reply, 'XREADGROUP').get(key) ?? [];
    } catch (error) {
      if (stopping) return [];
      // The mailbox was deleted (its member removed) while consumed: it starts again empty.
      if (error instanceof ErrorReply && error.message.startsWith('NOGROUP')) await ensureGroup(redis.client, key);
      else if (!isPassing(error)) throw error;
      // Redis is away for now: read again once it is back.
      await pauseAfter(error);
      return [];
    }
  };

  const take = async (entries: readonly StreamEntry[]) => {
    const reads = entries.map((entry) => judgeEntry(entry, options.admit));
    // Read, not taken: the entries stay pending for this consumer, to be read again after a restart.
    failpoint('redis-mailbox-after-read');
    // Sent again, the same batch, while only the connection fails: a take whose reply was lost is answered from its record.
    const outcomes = await untilAnswered(redis.client, () => takeBatch(redis, agent, lease, reads, options));
    // Recorded as handled, not yet handed over: a crash here loses the hand-over, never the record.
    failpoint('redis-mailbox-after-take');
    const messages: Envelope[] = [];
    for (const outcome of outcomes) {
      if (outcome.kind === 'handled') messages.push(outcome.envelope);
      else if (outcome.kind === 'set_aside') emit({ type: 'set_aside', problem: { ref: outcome.ref, reason: outcome.reason } });
    }
    if (messages.length > 0) emit({ type: 'delivered', messages });
  };

  const consume = async () => {
    // Its own pending entries first: those a consumer before it (this process or one killed)
    // read and did not take. Looked at again now and then: a consumer that lost its lease
    // while it read leaves what it read pending here too.
    let pendingLooked = Number.NEGATIVE_INFINITY;
    while (!stopping) {
      let entries: StreamEntry[] = [];
      if (performance.now() - pendingLooked >= BLOCK_MS) {
        entries = await read('0');
        // Until none is left, before anything new: they came first.
        if (entries.length === 0) pendingLooked = performance.now();
      }
      if (entries.length === 0 && !stopping) entries = await read('>');
      if (entries.length > 0 && !stopping) await take(entries);
    }
  };

  const stop = () => {
    stopping = true;
    lease.stop();
    // Ends a read blocked on the server at once.
    reader.destroy();
  };
  lease.renew((lost) => {
    stop();
    options.onError(lost);
  });
  const running = consume().catch((error: unknown) => {
    if (stopping) return;
    stop();
    options.onError(error);
  });

  return {
    async close() {
      stop();
      await running;
      await lease.release();
    },
  };
}
