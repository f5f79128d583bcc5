import { Refused } from '../lib/index.js';
import { modeAfterPlan, type PermissionMode, agentNameProblem, LEAD, type RequestRecord } from '../protocol/index.js';
import { describeMemberProcess, memberIsAlive, type Member, type TeamStore } from '../store/index.js';
import { noSuchTeammate } from './running-teammate.js';
import type { TeamBus } from '../team/index.js';

/** What the human is told of a respawn, wherever it was asked for (/respawn, `teams respawn`, the spawn tool). */
export function describeRespawn(name: string, started: { pid: number; cancelled: readonly string[]; planMode: boolean }): string {
  const { pid, cancelled } = started;
  return `respawned ${name} (pid ${pid}${started.planMode ? ', plan mode' : ''}) with its conversation; ${cancelled.length === 0 ? 'no request of its was cancelled' : `told its cancelled requests: ${cancelled.join(', ')}`}`;
}

/**
 * What a respawned teammate finds in its mailbox, with its task (board.ts): words that are its
 * first input after its old conversation, saying it was restarted, whether its own task `own`
 * is given back to it, that the other tasks it held went back to the board, and which of its
 * requests were cancelled, by id, so that it asks again for what it still needs rather than
 * wait for an answer.
 */
export function respawnBrief(cancelled: readonly string[], own: string | undefined): { subject: string; description: string } {
  const requests =
    cancelled.length === 0
      ? 'None of your requests was cancelled.'
      : `These requests of yours (or to you) were cancelled when your process ended, and will get no answer: ${cancelled.join(', ')}. Ask again for what you still need.`;
  const task = own === undefined ? '' : `Your own task ${own} is given back to you, in progress: go on with it, and close it with task_update when it is done. `;
  return {
    subject: 'respawned: go on with your task',
    description: `Your process ended (it crashed or was shut down) and the lead started it again. Your conversation so far is above; anything you were doing when it ended may not have finished. ${task}Other board tasks you had in progress went back to pending: claim again (task_claim) those still free that you mean to finish. ${requests}`,
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

/**
 * Whether `name` can be respawned, and how (in the session its journal is in: `session`, the
 * lead's current one for a member recorded without); Refused saying why not (a bad or
 * unknown name, the lead, a process still running by the roster, its host not there, nothing journaled). Its
 * requests still pending are cancelled (the process that asked is gone), and `cancelled` names
 * every request cancelled since its last record. Its caller has checked its own supervisor.
 */
export async function respawnPlan(
  name: string,
  deps: { store: TeamStore; bus: TeamBus; session: string; leadMode: PermissionMode; placementProblem: (host: string | undefined) => string | undefined },
): Promise<{ member: Member; cancelled: string[]; planMode: boolean; permissionMode: PermissionMode; session: string }> {
  const { store } = deps;
  const problem = agentNameProblem(name);
  if (problem) throw new Refused(problem);
  if (name === LEAD) throw new Refused(`'${LEAD}' is the lead itself: resume its session with --continue or --resume <id>`);
  const team = await store.roster.load();
  const member = team?.members.find((m) => m.name === name);
  if (!member) throw noSuchTeammate(name, team, store.team);
  if (memberIsAlive(member)) throw new Refused(`${name} is running (${describeMemberProcess(member)}): only a teammate that crashed or was shut down can be respawned`);
  // It goes back to the host it ran on: refused before anything changes when that host is not there.
  const placement = deps.placementProblem(member.host);
  if (placement) throw new Refused(`cannot respawn ${name}${member.host === undefined ? '' : ` on host '${member.host}', where it ran`}: ${placement}`);
  // Its conversation is where its spawn journaled it, whatever session the lead is in now.
  const session = member.session ?? deps.session;
  const last = (await store.sessions.read(session, name)).entries.at(-1);
  if (!last) throw new Refused(`${name} has no conversation journaled in session ${session}: spawn it afresh (with a role and a task)`);
  await deps.bus.cancelPending(name, `${name} was respawned: the process that was waiting is gone`);
  const since = Date.parse(last.at);
  const cancelled = (await store.requests.list({ state: 'cancelled', involving: name }))
    .filter((r) => r.decided_at !== undefined && Date.parse(r.decided_at) >= since)
    .map((r) => r.request_id);
  // A crash must not be a way out of plan mode, whichever lead process spawned it (the roster says).
  // A mode_set to plan since its spawn is recorded as its mode, and holds on respawn too.
  const planMode = member.permission_mode === 'plan' || respawnsInPlanMode(member, await store.requests.list({ kind: 'plan', state: 'approved', involving: name }));
  // It keeps the mode it worked in (the roster says: a grant by the human included), else the lead's.
  return { member, cancelled, planMode, permissionMode: modeAfterPlan(member.permission_mode ?? deps.leadMode), session };
}
