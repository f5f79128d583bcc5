import { addSpent, NOTHING_SPENT, tokensOf, ZERO_USAGE, type Spent } from '../../model/index.js';
import { LEAD } from '../../protocol/index.js';
import { memberCost } from '../../team/index.js';
import type { Member, Task } from '../../store/index.js';
import type { State } from './types.js';

export type SessionUsage = { tokens: number; cost: number | undefined };

type SpendingState = Pick<State, 'leadSpent' | 'members' | 'model' | 'usageAtStart' | 'spentBefore'>;

/** Each member's roster totals as they are: what a later look subtracts to see what was spent since. */
export function rosterSpending(members: readonly Member[]): Record<string, Spent> {
  return Object.fromEntries(members.flatMap((m) => (m.usage ? [[m.name, { usage: { ...ZERO_USAGE, ...m.usage }, cost: memberCost(m) }]] : [])));
}

/**
 * What each agent spent in the lead's session, the lead first: what its journals recorded before
 * the session began here (--continue, /resume), plus the lead's turns since and each teammate's
 * roster totals less what they were then, each turn priced as the model that ran it (a teammate
 * on Haiku is not charged at the lead's price). An agent of the session no longer on the roster
 * comes last, with what its journal recorded.
 */
export function spendingByAgent(state: SpendingState): [string, Spent][] {
  const before = (name: string) => state.spentBefore[name] ?? NOTHING_SPENT;
  const rows = new Map<string, Spent>([[LEAD, addSpent(before(LEAD), state.leadSpent)]]);
  for (const member of state.members) {
    if (member.name === LEAD || (!member.usage && state.spentBefore[member.name] === undefined)) continue;
    rows.set(member.name, addSpent(before(member.name), memberUsageSince(member, state.usageAtStart[member.name], state.model)));
  }
  for (const [name, spent] of Object.entries(state.spentBefore)) if (!rows.has(name)) rows.set(name, spent);
  return [...rows];
}

/** The session's tokens and cost, every agent's added up; cost is undefined when a model's price is not known. */
export function sessionUsage(state: SpendingState): SessionUsage {
  const total = spendingByAgent(state).reduce((sum, [, spent]) => addSpent(sum, spent), NOTHING_SPENT);
  return { tokens: tokensOf(total.usage), cost: total.cost };
}

/**
 * What a member used since `start` (its roster totals when the lead's session began here):
 * earlier sessions' turns are not this one's. A member that recorded no model yet runs the
 * lead's, the default.
 */
export function memberUsageSince(member: Member, start: Spent | undefined, leadModel: string): Spent {
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
