import { setTimeout as pause } from 'node:timers/promises';
import { ErrorReply } from '@redis/client';
import type { RedisClient, RedisTarget } from './connection.js';
import type { TeamKeys } from './keys.js';

/** Anything a store opens and must end when it closes: a watch, a consumer, an observer. */
export type Closable = { close(): Promise<void> };

/**
 * What every part of a Redis team store works with: the team's keys, the store's connection
 * (for commands that do not block), and the target, for the connections of their own that
 * blocking reads need. `keep` registers what a part opens, so that closing the store ends it
 * even if its owner did not.
 */
export type RedisTeam = {
  readonly team: string;
  readonly keys: TeamKeys;
  readonly client: RedisClient;
  readonly target: RedisTarget;
  keep(open: Closable): Closable;
};

/** The open things of one store: each closed once, by its owner or by the store's close. */
export class OpenThings {
  private readonly open = new Set<Closable>();

  keep(thing: Closable): Closable {
    let closing: Promise<void> | undefined;
    const kept: Closable = {
      close: () => {
        this.open.delete(kept);
        closing ??= thing.close();
        return closing;
      },
    };
    this.open.add(kept);
    return kept;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open].map((thing) => thing.close()));
  }
}

/** Consecutive failures a command is sent again through, before its error stands. */
const MAX_RESENDS = 100;
/** Before sending again a command the server refused for now (LOADING after a restart): it answers that at once. */
const BUSY_PAUSE_MS = 50;

/** Replies that say "not now" (a server loading its data after a restart, a script running too long), not "no". */
const NOT_NOW = /^(LOADING|BUSY|TRYAGAIN|MASTERDOWN|CLUSTERDOWN)\b/;

/**
 * Whether an error is Redis being away for a while rather than refusing: the connection
 * dropped (the client reconnects, and the next command waits for it), or the server answered
 * that it cannot serve yet. Either way the same command may be sent again.
 */
export function isPassing(error: unknown): boolean {
  return !(error instanceof ErrorReply) || NOT_NOW.test(error.message);
}

/** A pause before trying again after `error`, if it needs one: a dropped connection does not (the next command waits for the reconnection). */
export async function pauseAfter(error: unknown, signal?: AbortSignal): Promise<void> {
  if (error instanceof ErrorReply) await pause(BUSY_PAUSE_MS, undefined, { signal }).catch(() => undefined);
}

/**
 * Run `command`, and again when it failed only because Redis was away (isPassing) while the
 * client is still open. Only for idempotent commands: one that ran before its reply was lost
 * runs twice. The store's writes are made so (a deliver drops an id it has, a take answers a
 * batch it has taken from its record of it).
 */
export async function untilAnswered<T>(client: RedisClient, command: () => Promise<T>): Promise<T> {
  for (let resent = 0; ; resent++) {
    try {
      return await command();
    } catch (error) {
      if (!isPassing(error) || !client.isOpen || resent >= MAX_RESENDS) throw error;
      await pauseAfter(error);
    }
  }
}
