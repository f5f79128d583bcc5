import * as z from 'zod';
import type { Envelope } from '../../protocol/index.js';
import { luaScript } from './lua-script.js';
import type { MailboxEntryRead } from './mailbox-entry.js';
import type { MailboxLease } from './mailbox-lease.js';
import type { RedisTeam } from './redis-team.js';

/** The consumer group of every mailbox: one group, one consumer (the lease says which process). */
export const GROUP = 'consumer';

/**
 * Take a batch the consumer has read, atomically, before any of it is handed over:
 * - fenced: refused unless the lease is free or the caller's (then it is renewed);
 * - a retry of the batch this consumer last took (its reply lost with the connection) gets
 *   that take's answer again, and changes nothing;
 * - each entry acked; one already acked (taken by a consumer before this one) is skipped;
 * - a message ('h') recorded as handled in the history, unless its id was handled before
 *   (then only acked); a problem ('b') copied to the bad stream with its reason;
 * - the mailbox trimmed below the oldest entry still pending, or else past this batch: what is
 *   left in it is exactly what is unread.
 * KEYS: mailbox, history, handled ids, bad, lease, last take.
 * ARGV: token, lease ms, history kept, ids kept, first id after the batch, batch tag, then per
 * entry: kind, entry id, envelope id or reason, text.
 * Returns per entry: 'h' handled, 'd' skipped, or the id of its copy in the bad stream.
 */
const TAKE = luaScript(`
local holder = redis.call('GET', KEYS[5])
if holder and holder ~= ARGV[1] then return redis.error_reply('LEASE another consumer holds the lease of this mailbox') end
redis.call('SET', KEYS[5], ARGV[1], 'PX', ARGV[2])
if redis.call('HGET', KEYS[6], 'batch') == ARGV[6] then return cjson.decode(redis.call('HGET', KEYS[6], 'out')) end
local t = redis.call('TIME')
local score = t[1] .. string.format('%06d', t[2])
local out = {}
for i = 7, #ARGV, 4 do
  local kind, entry, what, text = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  if redis.call('XACK', KEYS[1], '${GROUP}', entry) == 0 then
    out[#out + 1] = 'd'
  elseif kind == 'h' then
    if redis.call('ZADD', KEYS[3], 'NX', score, what) == 1 then
      redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '*', 'm', text)
      out[#out + 1] = 'h'
    else
      out[#out + 1] = 'd'
    end
  else
    out[#out + 1] = redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[3], '*', 'entry', entry, 'reason', what, 'text', text)
  end
end
redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -1 - tonumber(ARGV[4]))
local pending = redis.call('XPENDING', KEYS[1], '${GROUP}')
redis.call('XTRIM', KEYS[1], 'MINID', pending[1] > 0 and pending[2] or ARGV[5])
redis.call('HSET', KEYS[6], 'batch', ARGV[6], 'out', cjson.encode(out))
return out
`);

const Outcomes = z.array(z.string());

/** What became of each entry of a batch taken. */
export type Outcome = { kind: 'handled'; envelope: Envelope } | { kind: 'skipped' } | { kind: 'set_aside'; ref: string; reason: string };

export type TakeLimits = { historyKept: number; idsKept: number };

/** The id right after stream id `id` (ms-seq): the smallest one a later entry may have. */
export function nextStreamId(id: string): string {
  const [ms, seq] = id.split('-');
  return `${ms ?? '0'}-${BigInt(seq ?? '0') + 1n}`;
}

/** Take `reads` (a batch of `agent`'s mailbox, in stream order, not empty) as TAKE says. */
export async function takeBatch(redis: RedisTeam, agent: string, lease: MailboxLease, reads: readonly MailboxEntryRead[], limits: TakeLimits): Promise<Outcome[]> {
  const first = reads[0];
  const last = reads.at(-1);
  if (first === undefined || last === undefined) return [];
  const keys = redis.keys;
  const bad = keys.setAside(agent);
  const args = [lease.token, String(lease.ms), String(limits.historyKept), String(limits.idsKept), nextStreamId(last.entry), `${lease.token} ${first.entry} ${last.entry}`];
  for (const read of reads) {
    if (read.kind === 'message') args.push('h', read.entry, read.envelope.id, read.text);
    else args.push('b', read.entry, read.reason, read.text);
  }
  const reply = await TAKE.run(redis.client, [keys.mailbox(agent), keys.handled(agent), keys.handledIds(agent), bad, keys.lease(agent), keys.lastTake(agent)], args);
  const outcomes = Outcomes.parse(reply);
  if (outcomes.length !== reads.length) throw new Error(`taking ${reads.length} entries of ${keys.mailbox(agent)}: Redis answered for ${outcomes.length}`);
  return reads.map((read, index): Outcome => {
    const outcome = outcomes[index];
    if (outcome === 'd') return { kind: 'skipped' };
    if (read.kind === 'message') return { kind: 'handled', envelope: read.envelope };
    return { kind: 'set_aside', ref: `${bad} entry ${outcome}`, reason: read.reason };
  });
}
