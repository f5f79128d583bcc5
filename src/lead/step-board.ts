import { LEAD, summarize } from '../protocol/index.js';
import { claimProblem, type Task } from '../store/index.js';
import { inertLine } from '../lib/index.js';
import type { LeadEffect, LeadStep } from './effects.js';
import type { BoardProblem, LeadState } from './state.js';

/**
 * Pure: the lead follows the board, whoever changes it (its model's tools, a teammate, `teams
 * task` in another shell). A pending task newly assigned to a running teammate is sent to it as
 * a task_assignment naming the board's id, and whenever the board changes or a teammate goes
 * idle, each idle teammate is told of the tasks it may claim now (their blockers all finished:
 * a completed or failed task unblocks its dependents), each task once.
 */
export function boardChanged(state: LeadState, tasks: Task[], problems: BoardProblem[], runningNow: string[]): LeadStep {
  const effects: LeadEffect[] = [];
  const reported = new Set(state.board.reported);
  // Records of the board that could not be read, each reported (shown and audited) once, the first look's too.
  for (const problem of problems) {
    const key = `${problem.ref}\n${problem.reason}`;
    if (reported.has(key)) continue;
    reported.add(key);
    effects.push({ type: 'problem', what: `task board ${problem.ref}`, reason: problem.reason, audited: true });
  }
  const before = state.board.seen;
  const seen = new Map(tasks.map((task) => [task.id, { status: task.status, owner: task.owner }]));
  const told = new Set(state.board.told);
  // A team that is stopping is sent no more work: the board neither assigns nor offers.
  const running = state.stopping ? [] : runningNow;
  // The first look is the board as the lead found it: assignments are news only after it.
  if (before !== undefined) {
    for (const task of tasks) if (!before.has(task.id)) effects.push({ type: 'task_created', task });
    for (const task of tasks) {
      const owner = task.owner;
      if (task.status !== 'pending' || owner === undefined || before.get(task.id)?.owner === owner || !running.includes(owner)) continue;
      if (told.has(`${owner}:${task.id}`)) continue;
      told.add(`${owner}:${task.id}`);
      effects.push({ type: 'send', draft: { type: 'task_assignment', from: LEAD, to: owner, task_id: task.id, subject: task.subject, description: task.description, claim: true } });
    }
  }
  for (const name of running.filter((n) => state.idle.has(n))) effects.push(...offer(told, name, tasks));
  return { state: { ...state, board: { seen, told, reported } }, effects };
}

/** `name` just went idle, and the board was read for it: tell it of any task it may claim that it has not been told of. */
export function boardRead(state: LeadState, name: string, tasks: Task[]): LeadStep {
  const told = new Set(state.board.told);
  const effects = offer(told, name, tasks);
  return { state: effects.length === 0 ? state : { ...state, board: { ...state.board, told } }, effects };
}

/** The lead sent `name` task `id` itself: never again by the board. */
export function assigned(state: LeadState, name: string, id: string): LeadStep {
  return { state: { ...state, board: { ...state.board, told: new Set(state.board.told).add(`${name}:${id}`) } }, effects: [] };
}

/**
 * Tell an idle teammate of the tasks it may claim now, each once (`told` is updated): a task it
 * was told of and left alone is not offered again, so an idle team does not spin.
 */
function offer(told: Set<string>, name: string, tasks: Task[]): LeadEffect[] {
  const board = new Map(tasks.map((task) => [task.id, task]));
  const fresh = tasks.filter((task) => claimProblem(task, name, board) === undefined && !told.has(`${name}:${task.id}`));
  if (fresh.length === 0) return [];
  for (const task of fresh) told.add(`${name}:${task.id}`);
  const list = fresh.map((task) => `${task.id} "${inertLine(task.subject)}"`).join(', ');
  const text = `Work is available on the task board: ${list}. Claim one with task_claim (task_list shows the board).`;
  return [{ type: 'send', draft: { type: 'message', from: LEAD, to: name, text, summary: summarize(text) } }];
}
