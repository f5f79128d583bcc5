import { randomUUID } from 'node:crypto';
import { setTimeout as pause } from 'node:timers/promises';
import * as z from 'zod';
import { Refused } from '../../lib/index.js';
import { luaScript } from './lua-script.js';
import type { RedisTeam } from './redis-team.js';

/** Take the lease, or keep it, if it is free or ours (ARGV: token, ms): 1, or 0 while another consumer holds it. */
const HOLD = luaScript(`
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`);

/** Let go of the lease if it is still ours. */
const RELEASE = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`);

const Held = z.union([z.literal(0), z.literal(1)]);

/**
 * One consumer per mailbox, across machines: a key holding the consumer's random token, with an
 * expiry the consumer renews. A consumer that dies lets go when its lease expires; every take
 * checks the token in the same script (fencing), so a consumer that lost its lease, paused or
 * cut off, can hand nothing over.
 */
export class MailboxLease {
  private renewal: NodeJS.Timeout | undefined;

  private constructor(
    private readonly redis: RedisTeam,
    private readonly key: string,
    /** What the takes present to show they hold the lease. */
    readonly token: string,
    readonly ms: number,
  ) {}

  /**
   * The lease of `agent`'s mailbox, waiting up to about one lease's length for it: a consumer
   * just killed still holds it until it expires. Refused while another consumer keeps it.
   */
  static async acquire(redis: RedisTeam, agent: string, ms: number): Promise<MailboxLease> {
    const lease = new MailboxLease(redis, redis.keys.lease(agent), randomUUID(), ms);
    const deadline = Date.now() + ms + Math.min(ms, 1_000);
    while (!(await lease.hold())) {
      if (Date.now() > deadline) {
        throw new Refused(`${agent}'s mailbox already has a consumer: another process holds its lease (${lease.key}) and keeps it. One consumer per mailbox; a consumer that stopped lets go within ${ms} ms`);
      }
      // Until about when it would expire, if its holder stopped renewing it.
      const left = z.number().parse(await redis.client.sendCommand(['PTTL', lease.key]));
      await pause(Math.min(Math.max(left, 10), 250));
    }
    return lease;
  }

  /** Take or keep the lease: whether it is ours now. */
  private async hold(): Promise<boolean> {
    return Held.parse(await HOLD.run(this.redis.client, [this.key], [this.token, String(this.ms)])) === 1;
  }

  /** Renew the lease a few times per its length; `onLost` hears once that another consumer has it. */
  renew(onLost: (error: Error) => void): void {
    this.renewal = setInterval(() => {
      this.hold().then(
        (held) => {
          if (held || this.renewal === undefined) return;
          this.stop();
          onLost(new Error(`lost the lease of the mailbox (${this.key}) to another consumer: this one stops`));
        },
        // Redis unreachable: the next renewal tries again, and every take checks the lease anyway.
        () => undefined,
      );
    }, Math.max(Math.floor(this.ms / 3), 1));
    // The consumer's own reads keep the process alive while it consumes; this must not after.
    this.renewal.unref();
  }

  stop(): void {
    clearInterval(this.renewal);
    this.renewal = undefined;
  }

  /** Stop renewing, and let go at once if Redis can be told (else the lease expires by itself). */
  async release(): Promise<void> {
    this.stop();
    if (this.redis.client.isReady) await RELEASE.run(this.redis.client, [this.key], [this.token]).catch(() => undefined);
  }
}
