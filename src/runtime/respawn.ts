import { newRequestId } from '../protocol/ids.js';
import type { Member } from '../store/roster.js';
import type { RequestRecord } from '../tracker/records.js';

/** What the human is told of a respawn, wherever it was asked for (/respawn, `teams respawn`, the spawn tool). */
export function describeRespawn(name: string, started: { pid: number; cancelled: readonly string[]; planMode: boolean }): string {
  const { pid, cancelled } = started;
  return `respawned ${name} (pid ${pid}${started.planMode ? ', plan mode' : ''}) with its conversation; ${cancelled.length === 0 ? 'no request of its was cancelled' : `told its cancelled requests: ${cancelled.join(', ')}`}`;
}

/**
 * What a respawned teammate finds in its mailbox: a task whose words are its first input after
 * its old conversation, saying it was restarted and which of its requests were cancelled, by
 * id, so that it asks again for what it still needs rather than wait for an answer.
 */
export function respawnTask(cancelled: readonly string[]): { task_id: string; subject: string; description: string } {
  const requests =
    cancelled.length === 0
      ? 'None of your requests was cancelled.'
      : `These requests of yours (or to you) were cancelled when your process ended, and will get no answer: ${cancelled.join(', ')}. Ask again for what you still need.`;
  return {
    task_id: newRequestId('task'),
    subject: 'respawned: go on with your task',
    description: `Your process ended (it crashed or was shut down) and the lead started it again. Your conversation so far is above; anything you were doing when it ended may not have finished. ${requests}`,
  };
}

/**
 * Whether a respawned teammate starts in plan mode: when a lead spawned it in plan mode (the
 * roster keeps when, whichever lead process that was) and no plan it submitted since has been
 * approved. A plan approved in an earlier life, before a fresh spawn under the same name, does
 * not count: that spawn asked for a new plan.
 */
export function respawnsInPlanMode(member: Pick<Member, 'name' | 'plan_mode_since'>, plans: readonly RequestRecord[]): boolean {
  if (member.plan_mode_since === undefined) return false;
  const since = Date.parse(member.plan_mode_since);
  return !plans.some((r) => r.kind === 'plan' && r.state === 'approved' && r.from === member.name && Date.parse(r.created_at) >= since);
}
