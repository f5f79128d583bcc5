import { connectRedis, redisTarget } from '../../src/store/redis/connection.js';
import type { Figure } from './section.js';

/**
 * Where a Redis mailbox run spends the server's time: the commands clients sent (each one a
 * round trip), per message handled, and the server's CPU per message. Measured so a change to
 * the scripts shows whether it cut round trips or only moved work into Lua.
 */

/**
 * Commands a script runs inside itself are counted by Redis too, so only these are counted as
 * round trips: every deliver and take is a script, and the consumer's reads are XREADGROUP.
 */
const CLIENT_COMMANDS = ['evalsha', 'eval', 'xreadgroup'];

/** `cmdstat_<name>:calls=<n>,usec=<n>,…` lines of INFO commandstats, as name → calls and µs. */
function parseCommandstats(info: string): Map<string, { calls: number; usec: number }> {
  const stats = new Map<string, { calls: number; usec: number }>();
  for (const line of info.split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/.exec(line.trim());
    if (match?.[1] !== undefined) stats.set(match[1], { calls: Number(match[2]), usec: Number(match[3]) });
  }
  return stats;
}

/** Zero the server's command counters (right before the measured part of a run). */
export async function resetCommandstats(url: string): Promise<void> {
  const client = await connectRedis(redisTarget(url));
  try {
    await client.sendCommand(['CONFIG', 'RESETSTAT']);
  } finally {
    client.destroy();
  }
}

/** Client commands (round trips) and script time per message, since the last reset. */
export async function commandFigures(url: string, messages: number): Promise<Figure[]> {
  const client = await connectRedis(redisTarget(url));
  let info: unknown;
  try {
    info = await client.sendCommand(['INFO', 'commandstats']);
  } finally {
    client.destroy();
  }
  if (typeof info !== 'string') throw new Error(`INFO commandstats answered ${typeof info}, not text`);
  const stats = parseCommandstats(info);
  let roundTrips = 0;
  const sent: string[] = [];
  for (const name of CLIENT_COMMANDS) {
    const calls = stats.get(name)?.calls ?? 0;
    roundTrips += calls;
    sent.push(`${name} ${(calls / messages).toFixed(2)}`);
  }
  const scriptUsec = (stats.get('evalsha')?.usec ?? 0) + (stats.get('eval')?.usec ?? 0);
  return [
    { label: 'client commands (round trips) per message', value: `${(roundTrips / messages).toFixed(2)} (${sent.join(', ')})` },
    { label: 'server time in scripts per message', value: `${(scriptUsec / messages).toFixed(1)} µs` },
  ];
}
