import { errorMessage } from '../../lib/index.js';
import { AgentName } from '../../protocol/index.js';
import { HostBeat, HostRecord, channelLineProblem, type ChannelBatch, type HostChannel, type HostStore } from '../hosts.js';
import type { Subscription } from '../transport.js';
import { untilAnswered, type RedisTeam } from './redis-team.js';
import { serverNow } from './server-clock.js';
import { followStreams } from './stream-follow.js';
import { allEntries } from './stream-journal.js';
import { fieldOf, type StreamEntry } from './stream-entries.js';

/** The one field of a channel entry: the line. */
const LINE = 'l';

/** The host section on Redis: beats in one hash stamped with the server's TIME, each channel a stream. */
export class RedisHosts implements HostStore {
  readonly orders: HostChannel;
  readonly reports: HostChannel;

  constructor(private readonly redis: RedisTeam) {
    this.orders = new RedisChannel(redis, 'orders');
    this.reports = new RedisChannel(redis, 'reports');
  }

  async beat(record: HostRecord): Promise<string> {
    const parsed = HostRecord.parse(record);
    const stamp = (await serverNow(this.redis.client)).toISOString();
    const value = JSON.stringify({ ...parsed, last_beat: stamp });
    await untilAnswered(this.redis.client, () => this.redis.client.sendCommand(['HSET', this.redis.keys.hosts, parsed.name, value]));
    return stamp;
  }

  async list(): Promise<{ hosts: HostBeat[]; now: string; problems: { ref: string; reason: string }[] }> {
    const reply = await untilAnswered(this.redis.client, () => this.redis.client.sendCommand(['HGETALL', this.redis.keys.hosts]));
    const now = (await serverNow(this.redis.client)).toISOString();
    const hosts: HostBeat[] = [];
    const problems: { ref: string; reason: string }[] = [];
    for (const [name, value] of fieldsOf(reply).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const ref = `${this.redis.keys.hosts} ${name.slice(0, 40)}`;
      try {
        const host = HostBeat.parse(JSON.parse(value));
        if (host.name !== name) throw new Error(`it names another host (${host.name})`);
        hosts.push(host);
      } catch (error) {
        problems.push({ ref, reason: errorMessage(error) });
      }
    }
    return { hosts, now, problems };
  }

  async remove(name: string): Promise<void> {
    await this.redis.client.sendCommand(['HDEL', this.redis.keys.hosts, AgentName.parse(name)]);
  }
}

/** HGETALL's reply (a map in RESP3, a flat list in RESP2) as pairs; anything else is an error. */
function fieldsOf(reply: unknown): [string, string][] {
  if (Array.isArray(reply)) {
    const pairs: [string, string][] = [];
    for (let i = 0; i + 1 < reply.length; i += 2) pairs.push([String(reply[i]), String(reply[i + 1])]);
    return pairs;
  }
  if (reply !== null && typeof reply === 'object') return Object.entries(reply as Record<string, unknown>).map(([k, v]) => [k, String(v)]);
  throw new Error('Redis answered HGETALL with something that is not a hash');
}

/** A stream id: the cursor of a channel. */
const STREAM_ID = /^\d{1,20}-\d{1,20}$/;

class RedisChannel implements HostChannel {
  constructor(
    private readonly redis: RedisTeam,
    private readonly channel: 'orders' | 'reports',
  ) {}

  private keyOf(host: string): string {
    return this.redis.keys.hostChannel(AgentName.parse(host), this.channel);
  }

  async append(host: string, line: string): Promise<void> {
    const problem = channelLineProblem(line);
    if (problem) throw new Error(problem);
    // Sent again after a lost reply, a line may be stored twice: every reader takes an id once.
    const key = this.keyOf(host);
    await untilAnswered(this.redis.client, () => this.redis.client.sendCommand(['XADD', key, '*', LINE, line]));
  }

  async follow(host: string, listener: (batch: ChannelBatch) => void, from?: string): Promise<Subscription> {
    if (from !== undefined && !STREAM_ID.test(from)) throw new Error(`not a cursor of this channel: '${from.slice(0, 40)}'`);
    const key = this.keyOf(host);
    const backlog = await allEntries(this.redis, key, from);
    const first = batchOf(backlog);
    if (first.lines.length > 0) listener(first);
    const after = backlog.at(-1)?.id ?? from ?? '0-0';
    // A read that fails is read again from where it got to; the lines themselves are the reader's to judge.
    const follow = await followStreams(this.redis.target, [{ key, after }], (read) => {
      const batch = batchOf(read.flatMap((stream) => stream.entries));
      if (batch.lines.length > 0) listener(batch);
    }, () => undefined);
    return this.redis.keep(follow);
  }
}

/** The lines of entries, each an opaque line to its reader; an entry without one (not ours) is skipped. */
function batchOf(entries: readonly StreamEntry[]): ChannelBatch {
  const lines = entries.map((entry) => fieldOf(entry, LINE)).filter((line): line is string => line !== undefined);
  return { lines, next: entries.at(-1)?.id ?? '0-0' };
}
