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
export function sessionUsage(state: Pick<State, 'leadUsage' | 'members' | 'model' | 'usageAtStart'>): SessionUsage {
  let total: TokenUsage = state.leadUsage;
  let cost = costOf(state.model, state.leadUsage);
  for (const member of state.members) {
    if (member.name === LEAD || !member.usage) continue;
    const { usage: since, cost: spent } = memberUsageSince(member, state.usageAtStart[member.name], state.model);
    total = addUsage(total, since);
    cost = cost === undefined || spent === undefined ? undefined : cost + spent;
  }
  const tokens = total.input_tokens + total.output_tokens + total.cache_read_tokens + total.cache_write_tokens;
  return { tokens, cost };
}

/**
 * What a member used since `start` (its roster totals when the REPL opened): earlier sessions'
 * turns are not this one's. A member that recorded no model yet runs the lead's, the default.
 */
export function memberUsageSince(member: Member, start: State['usageAtStart'][string] | undefined, leadModel: string): { usage: TokenUsage; cost: number | undefined } {
  const now = { ...ZERO_USAGE, ...member.usage };
  const cost = memberCost({ ...member, model: member.model ?? leadModel });
  if (start === undefined) return { usage: now, cost };
  const less = (a: number, b: number) => Math.max(0, a - b);
  const usage = { input_tokens: less(now.input_tokens, start.usage.input_tokens), output_tokens: less(now.output_tokens, start.usage.output_tokens), cache_read_tokens: less(now.cache_read_tokens, start.usage.cache_read_tokens), cache_write_tokens: less(now.cache_write_tokens, start.usage.cache_write_tokens) };
  return { usage, cost: cost === undefined || start.cost === undefined ? undefined : Math.max(0, cost - start.cost) };
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
