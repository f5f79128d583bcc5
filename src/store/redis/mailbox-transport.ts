import { agentNameProblem, type Envelope } from '../../protocol/index.js';
import { rethrowLater } from '../../lib/index.js';
import { messageText } from '../message-text.js';
import type { MailboxEvent, ObserveOptions, SetAside, SubscribeOptions, Subscription, Transport } from '../transport.js';
import { luaScript } from './lua-script.js';
import { startRedisConsumer } from './mailbox-consumer.js';
import { MESSAGE_FIELD, readMailboxEntry } from './mailbox-entry.js';
import { observeRedisMailbox } from './mailbox-observe.js';
import { untilAnswered, type RedisTeam } from './redis-team.js';
import { rangeEntries } from './stream-entries.js';

/**
 * Deliver unless the id was delivered before: remember it (newest kept, by the server's clock),
 * forget the oldest beyond the bound, and append the message.
 * KEYS: mailbox, delivered ids. ARGV: id, text, ids kept. Returns 1, or 0 for a duplicate.
 */
const DELIVER = luaScript(`
local t = redis.call('TIME')
if redis.call('ZADD', KEYS[2], 'NX', t[1] .. string.format('%06d', t[2]), ARGV[1]) == 0 then return 0 end
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -1 - tonumber(ARGV[3]))
redis.call('XADD', KEYS[1], '*', '${MESSAGE_FIELD}', ARGV[2])
return 1
`);

export type RedisTransportOptions = {
  /** How long a consumer's lease lasts unless renewed (default 3 s): how soon another may take over from one that died. */
  leaseMs?: number;
  /** How many handled messages each mailbox keeps as its history (default 10,000). */
  historyKept?: number;
  /** How many ids each mailbox remembers to drop a message delivered or read twice (default 10,000). */
  idsKept?: number;
  /** What stops a consumer (its lease lost, an unexpected reply); by default rethrown: the process crashes, nothing is lost. */
  onError?: (error: unknown) => void;
};

/**
 * The Redis store's mailboxes: a stream per agent, read by one consumer group with one consumer
 * (a lease says which process), and beside it the agent's history (what it handled), what was
 * set aside (`…:bad`) and the ids seen. A mailbox stream holds exactly the unread messages: a
 * take trims what it took.
 */
export class RedisTransport implements Transport {
  private readonly options: Required<RedisTransportOptions>;

  constructor(
    private readonly redis: RedisTeam,
    options: RedisTransportOptions = {},
  ) {
    this.options = { leaseMs: 3_000, historyKept: 10_000, idsKept: 10_000, onError: rethrowLater, ...options };
  }

  /** The agent's name, checked: it becomes part of keys. */
  private checked(agent: string): string {
    const problem = agentNameProblem(agent);
    if (problem) throw new Error(problem);
    return agent;
  }

  /** Sent again through a dropped connection: a deliver that ran before its reply was lost is dropped as a duplicate. */
  async deliver(agent: string, envelope: Envelope): Promise<void> {
    const text = messageText(this.checked(agent), envelope);
    const keys = [this.redis.keys.mailbox(agent), this.redis.keys.delivered(agent)];
    await untilAnswered(this.redis.client, () => DELIVER.run(this.redis.client, keys, [envelope.id, text, String(this.options.idsKept)]));
  }

  async peek(agent: string): Promise<{ messages: Envelope[]; problems: SetAside[] }> {
    const key = this.redis.keys.mailbox(this.checked(agent));
    const peeked: { messages: Envelope[]; problems: SetAside[] } = { messages: [], problems: [] };
    for (const entry of rangeEntries(await this.redis.client.sendCommand(['XRANGE', key, '-', '+']))) {
      const read = readMailboxEntry(entry);
      if (read.kind === 'message') peeked.messages.push(read.envelope);
      else peeked.problems.push({ ref: `${key} entry ${read.entry}`, reason: read.reason });
    }
    return peeked;
  }

  async subscribe(agent: string, listener: (event: MailboxEvent) => void, options: SubscribeOptions = {}): Promise<Subscription> {
    const consumer = await startRedisConsumer(this.redis, this.checked(agent), listener, { ...this.options, admit: options.admit });
    return this.redis.keep(consumer);
  }

  async observe(agent: string, listener: (messages: Envelope[]) => void, options: ObserveOptions): Promise<Subscription> {
    // An observer only shows what is there: what is wrong with the mailbox is the consumer's to report.
    return observeRedisMailbox(this.redis, this.checked(agent), listener, options, () => undefined);
  }
}
