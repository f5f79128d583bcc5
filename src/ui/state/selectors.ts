import { addUsage, costOf, ZERO_USAGE, type TokenUsage } from '../../model/index.js';
import { LEAD } from '../../protocol/index.js';
import { memberCost } from '../../team/index.js';
import type { Member, Task } from '../../store/index.js';
import type { State } from './types.js';

export type SessionUsage = { tokens: number; cost: number | undefined };

/**
 * The session's tokens and cost: the lead's from its turns, each teammate's from the running
 * totals it keeps in the roster, priced as the model it ran (a teammate on Haiku is not
 * charged at the lead's price). Cost is undefined when a model's price is not known.
 */
export function sessionUsage(state: Pick<State, 'leadUsage' | 'members' | 'model'>): SessionUsage {
  let total: TokenUsage = state.leadUsage;
  let cost = costOf(state.model, state.leadUsage);
  for (const member of state.members) {
    if (member.name === LEAD || !member.usage) continue;
    total = addUsage(total, { ...ZERO_USAGE, ...member.usage });
    // A teammate that recorded no model yet runs the lead's, the default.
    const spent = memberCost({ ...member, model: member.model ?? state.model });
    cost = cost === undefined || spent === undefined ? undefined : cost + spent;
  }
  const tokens = total.input_tokens + total.output_tokens + total.cache_read_tokens + total.cache_write_tokens;
  return { tokens, cost };
}

const GONE: readonly Member['status'][] = ['shutdown', 'crashed', 'registered'];

/** Teammates whose process still runs: what a shutdown is waiting for. */
export function stillRunning(members: readonly Member[]): string[] {
  return members.filter((m) => m.name !== LEAD && !GONE.includes(m.status)).map((m) => m.name);
}

/** Requests waiting on the human, per sender, for the team panel. */
export function pendingBySender(state: Pick<State, 'queue'>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of state.queue) counts.set(request.from, (counts.get(request.from) ?? 0) + 1);
  return counts;
}

/**
 * What each teammate is working on, for the team panel: the board tasks it owns that are in
 * progress, by owner, lowest id first. A pending task assigned to it is not begun yet, so not
 * shown; the task panel has the whole board.
 */
export function currentTasks(state: Pick<State, 'tasks'>): Map<string, Task[]> {
  const byOwner = new Map<string, Task[]>();
  for (const task of [...state.tasks].sort((a, b) => Number(a.id) - Number(b.id))) {
    if (task.status !== 'in_progress' || task.owner === undefined) continue;
    byOwner.set(task.owner, [...(byOwner.get(task.owner) ?? []), task]);
  }
  return byOwner;
}
