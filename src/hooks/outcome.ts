import { BLOCKING_EVENTS, type HookEvent } from './settings.js';

/** How a hook's process ended, as the runner saw it. */
export type HookExit =
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null }
  | { kind: 'timed_out'; afterS: number }
  | { kind: 'spawn_failed'; error: string }
  /** The lead stopped while it ran: its group was killed. */
  | { kind: 'cancelled' };

/**
 * What the team makes of it. `ok`: the event goes on. `blocked`: the event does not happen (the
 * teammate keeps working, the task stays in progress) and `feedback` goes to the teammate's
 * model. `failed`: reported as a problem, and the event goes on: a broken hook never stops the team.
 */
/** What the event's caller does next, all of an event's hooks run: go on, or not (which hook said no, and its stderr). */
export type HookVerdict = { blocked: false } | { blocked: true; command: string; feedback: string };

export type HookOutcome = { status: 'ok' } | { status: 'blocked'; feedback: string } | { status: 'failed'; reason: string };

/** Exit 2 means "no", as in Claude Code's hooks. */
export const BLOCK_EXIT_CODE = 2;

/** What a teammate reads when a hook said no without saying why. */
export const NO_REASON_GIVEN = 'A project hook refused this without saying why (its stderr was empty).';

/** Pure: the outcome of one hook's run on `event`, given how it ended and what it wrote to stderr. */
export function hookOutcome(event: HookEvent, exit: HookExit, stderr: string): HookOutcome {
  switch (exit.kind) {
    case 'spawn_failed':
      return { status: 'failed', reason: `could not be started: ${exit.error}` };
    case 'cancelled':
      return { status: 'failed', reason: 'the lead stopped while it ran; its process group was killed' };
    case 'timed_out':
      return { status: 'failed', reason: `timed out after ${exit.afterS} s; its process group was killed` };
    case 'exited':
      if (exit.code === 0) return { status: 'ok' };
      if (exit.code === BLOCK_EXIT_CODE) {
        if (BLOCKING_EVENTS.has(event)) return { status: 'blocked', feedback: stderr.trim() || NO_REASON_GIVEN };
        return { status: 'failed', reason: `exited 2, but ${event} cannot be blocked (only ${[...BLOCKING_EVENTS].join(' and ')} can); the event went on${tail(stderr)}` };
      }
      if (exit.code === null) return { status: 'failed', reason: `was killed by ${exit.signal ?? 'a signal'}${tail(stderr)}` };
      return { status: 'failed', reason: `exited ${exit.code}${tail(stderr)}` };
  }
}

/** The end of its stderr in a problem's one line: most often where the error is. */
function tail(stderr: string): string {
  const last = stderr.trim().split('\n').at(-1)?.trim();
  if (!last) return '';
  return `: ${last.length > 200 ? `…${last.slice(-200)}` : last}`;
}
