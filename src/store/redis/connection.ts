import { createClient } from '@redis/client';
import { Refused, errorMessage } from '../../lib/index.js';
import type { StoreStatus } from '../team-store.js';

/**
 * One connection to the team's Redis server. Every process of a team spanning machines shares
 * nothing but this server, so a connection that drops is normal: the client reconnects with a
 * growing delay, commands wait while it does, and the owner hears plainly that Redis is down
 * (and back), instead of a stack trace.
 */
export type RedisClient = ReturnType<typeof newClient>;

function newClient(url: string, reconnectStrategy: (retries: number, cause: Error) => number | Error) {
  return createClient({ url, socket: { reconnectStrategy } });
}


export type RedisTarget = {
  /** The URL as given (it may carry a password): never shown, never put on a command line. */
  url: string;
  /** The URL without its credentials: what messages name. */
  shown: string;
};

/** Loopback only: anything else is reachable by others, so it must ask for a password. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Check a redis:// or rediss:// URL before anything connects. Refused: another scheme, no host,
 * or a host beyond loopback without a password (anyone who can reach the server could then
 * read the team's messages and fill its mailboxes).
 */
export function redisTarget(url: string): RedisTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Refused('the Redis store URL is not a URL (expected redis://[user:password@]host:port)');
  }
  const shown = redactedUrl(parsed);
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new Refused(`${shown}: a Redis store URL starts with redis:// or rediss://`);
  if (parsed.hostname === '') throw new Refused(`${shown}: the Redis store URL names no host`);
  if (!isLoopback(parsed.hostname) && parsed.password === '') {
    throw new Refused(`${shown}: Redis authentication is required beyond loopback; give redis://user:password@${parsed.host} (requirepass or an ACL user on the server)`);
  }
  return { url, shown };
}

/** The URL with any user and password left out. */
export function redactedUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

/** How long to wait before reconnect attempt `retries` (0 first): doubling from 50 ms, at most 2 s. */
export function reconnectDelay(retries: number): number {
  return Math.min(50 * 2 ** Math.min(retries, 6), 2_000);
}

/**
 * Connect to `target`. `onStatus` hears each change between up and down, once per change.
 * Resolves once connected the first time; a server that is not there yet is retried, as later.
 */
export async function connectRedis(target: RedisTarget, onStatus: (status: StoreStatus) => void = () => undefined): Promise<RedisClient> {
  let down = false;
  let lastReason = 'not connected';
  const client = newClient(target.url, (retries, cause) => {
    lastReason = errorMessage(cause);
    // Wrong credentials do not heal by waiting: say so once and stop, rather than retry forever.
    if (/^(WRONGPASS|NOAUTH|NOPERM)/.test(lastReason)) return new Refused(`Redis at ${target.shown} refused this store's credentials (${lastReason})`);
    const retryInMs = reconnectDelay(retries);
    if (!down) {
      down = true;
      onStatus({ state: 'down', reason: `Redis at ${target.shown} is unreachable (${lastReason})`, retryInMs });
    }
    return retryInMs;
  });
  // Errors are reported through the reconnect strategy; without a listener they would crash the process.
  client.on('error', (error: unknown) => {
    lastReason = errorMessage(error);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    onStatus({ state: 'up' });
  });
  await client.connect();
  return client;
}
