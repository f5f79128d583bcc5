import * as z from 'zod';
import { AgentName } from '../protocol/index.js';
import { inertLine } from '../lib/index.js';

/**
 * The task board's records and rules. Every process folds the same journal through these pure
 * functions (no clock, no I/O: the time comes with the change), so they all agree on which
 * change of a task won when several raced.
 */

export const TaskBoardStatus = z.enum(['pending', 'in_progress', 'completed', 'failed', 'cancelled']);
export type TaskBoardStatus = z.infer<typeof TaskBoardStatus>;

/** Board task ids are short decimal numbers ("7"), easy to type in the CLI and to say to a model. */
export const TaskId = z.string().regex(/^[1-9][0-9]{0,8}$/, 'a task id is a number such as 7');

const timestamp = z.iso.datetime({ offset: true });

export const TaskNote = z.object({ at: timestamp, by: z.string().min(1), text: z.string().min(1) });
export type TaskNote = z.infer<typeof TaskNote>;

export const Task = z.object({
  id: TaskId,
  subject: z.string().trim().min(1).max(200),
  description: z.string().max(20_000),
  status: TaskBoardStatus,
  owner: AgentName.optional(),
  blocked_by: z.array(TaskId),
  created_by: z.string().min(1),
  created_at: timestamp,
  updated_at: timestamp,
  result: z.string().max(20_000).optional(),
  notes: z.array(TaskNote).optional(),
});
export type Task = z.infer<typeof Task>;

export const ONE_LINE_SUBJECT = 'the subject is one line: no line breaks or other control characters';

/** Whether a subject is one plain line: nothing in it a terminal would act on (see inertLine). */
export function isOneLine(subject: string): boolean {
  return inertLine(subject) === subject;
}

/**
 * What a creator gives; the rest is decided when the task is written. A new subject is one
 * line, so a board line cannot be forged in it; one read back from an older journal may not be
 * (Task does not refuse it), and is shown escaped.
 */
export const TaskDraft = z.object({
  subject: Task.shape.subject.refine(isOneLine, ONE_LINE_SUBJECT),
  description: z.string().max(20_000).default(''),
  blocked_by: z.array(TaskId).default([]),
  owner: AgentName.optional(),
});
export type TaskDraft = z.input<typeof TaskDraft>;

/**
 * One change to a task. `claim` takes a pending task for `by`; `release` puts an in_progress
 * task back to pending with nobody owning it, or, `keep_owner`, still assigned to its owner (a
 * teammate's own spawn task, kept for it when it exits unfinished); `set` changes status,
 * owner, result or blockers.
 */
export const TaskChange = z.discriminatedUnion('op', [
  z.object({ op: z.literal('claim') }),
  z.object({ op: z.literal('release'), note: z.string().min(1), keep_owner: z.boolean().optional() }),
  z.object({
    op: z.literal('set'),
    status: TaskBoardStatus.optional(),
    owner: AgentName.nullable().optional(),
    result: z.string().max(20_000).optional(),
    blocked_by: z.array(TaskId).optional(),
    note: z.string().min(1).optional(),
    /** Apply only while this agent owns the task: a change made for its owner does not land on a task claimed by another since. */
    owned_by: AgentName.optional(),
  }),
]);
export type TaskChange = z.infer<typeof TaskChange>;

export type TaskResult = { ok: true; task: Task } | { ok: false; error: string };

const FINISHED: readonly TaskBoardStatus[] = ['completed', 'failed', 'cancelled'];

/** Whether a task is done with, one way or another: its dependents may go on. */
export function isFinished(status: TaskBoardStatus): boolean {
  return FINISHED.includes(status);
}

/** Which status may follow which; a finished task is final. */
const NEXT: Record<TaskBoardStatus, readonly TaskBoardStatus[]> = {
  pending: ['in_progress', 'cancelled'],
  in_progress: ['pending', 'completed', 'failed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};

export function transitionProblem(task: Task, to: TaskBoardStatus): string | undefined {
  if (task.status === to) return `task ${task.id} is already ${to}`;
  if (NEXT[task.status].includes(to)) return undefined;
  if (isFinished(task.status)) return `task ${task.id} is already ${task.status} and can no longer be ${to}`;
  return `task ${task.id} cannot go from ${task.status} to ${to} (from ${task.status}: ${NEXT[task.status].join(', ')})`;
}

/** The blockers of `task` that are not finished yet, by id. */
export function unfinishedBlockers(task: Task, tasks: ReadonlyMap<string, Task>): string[] {
  return task.blocked_by.filter((id) => {
    const blocker = tasks.get(id);
    return blocker === undefined || !isFinished(blocker.status);
  });
}

/** Why `blocked_by` cannot be given to task `id`: an unknown id, itself, or a cycle (the path is named). */
export function blockersProblem(id: string, blockedBy: readonly string[], tasks: ReadonlyMap<string, Task>): string | undefined {
  for (const blocker of blockedBy) {
    if (blocker === id) return `task ${id} cannot be blocked by itself`;
    if (!tasks.has(blocker)) return `task ${id} cannot be blocked by unknown task ${blocker}`;
  }
  // A cycle exists when `id` is reachable from one of its new blockers.
  const path = new Map<string, string>();
  const queue = [...blockedBy];
  for (const start of blockedBy) path.set(start, id);
  while (queue.length > 0) {
    const current = queue.shift() as string;
    if (current === id) break;
    for (const next of tasks.get(current)?.blocked_by ?? []) {
      if (path.has(next)) continue;
      path.set(next, current);
      queue.push(next);
    }
  }
  if (!path.has(id)) return undefined;
  const chain = [id];
  for (let at = path.get(id); at !== undefined && at !== id; at = path.get(at)) chain.push(at);
  chain.push(id);
  return `task ${id} cannot be blocked by ${blockedBy.join(', ')}: that makes a cycle (${chain.reverse().join(' → ')} waits on itself)`;
}

/** Why `by` may not claim `task`, or undefined when it may. */
export function claimProblem(task: Task, by: string, tasks: ReadonlyMap<string, Task>): string | undefined {
  if (task.status === 'in_progress') return task.owner === by ? `task ${task.id} is already yours` : `task ${task.id} is already claimed by ${task.owner ?? 'someone'}`;
  if (task.status !== 'pending') return `task ${task.id} is already ${task.status} and cannot be claimed`;
  if (task.owner !== undefined && task.owner !== by) return `task ${task.id} is assigned to ${task.owner}`;
  const waiting = unfinishedBlockers(task, tasks);
  // A blocker whose record was set aside never finishes: the task waits until its blockers change.
  const unknown = waiting.filter((id) => !tasks.has(id));
  if (unknown.length > 0) return `task ${task.id} is blocked by task${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}, which ${unknown.length > 1 ? 'are' : 'is'} not on the board: change its blockers first`;
  if (waiting.length > 0) return `task ${task.id} is blocked by unfinished task${waiting.length > 1 ? 's' : ''} ${waiting.join(', ')}`;
  return undefined;
}

function withNote(task: Task, note: string | undefined, by: string, at: string): Task {
  if (note === undefined) return task;
  return { ...task, notes: [...(task.notes ?? []), { at, by, text: note }] };
}

/** Apply one change by `by` at `at` to `task` among `tasks`: the new task, or why not. */
export function applyTaskChange(task: Task, change: TaskChange, by: string, at: string, tasks: ReadonlyMap<string, Task>): TaskResult {
  if (change.op === 'claim') {
    const problem = claimProblem(task, by, tasks);
    if (problem) return { ok: false, error: problem };
    return { ok: true, task: { ...task, status: 'in_progress', owner: AgentName.parse(by), updated_at: at } };
  }
  if (change.op === 'release') {
    if (task.status !== 'in_progress') return { ok: false, error: `task ${task.id} is ${task.status}, not in progress, and cannot be released` };
    if (change.keep_owner === true) return { ok: true, task: withNote({ ...task, status: 'pending', updated_at: at }, change.note, by, at) };
    const { owner: _owner, ...rest } = task;
    return { ok: true, task: withNote({ ...rest, status: 'pending', updated_at: at }, change.note, by, at) };
  }
  if (change.owned_by !== undefined && task.owner !== change.owned_by) {
    return { ok: false, error: task.owner === undefined ? `task ${task.id} is nobody's now, not ${change.owned_by}'s` : `task ${task.id} is already claimed by ${task.owner}` };
  }
  let next: Task = { ...task, updated_at: at };
  if (change.blocked_by !== undefined) {
    if (task.status !== 'pending') return { ok: false, error: `task ${task.id} is ${task.status}: only a pending task's blockers can change` };
    const problem = blockersProblem(task.id, change.blocked_by, tasks);
    if (problem) return { ok: false, error: problem };
    next.blocked_by = [...new Set(change.blocked_by)];
  }
  if (change.owner !== undefined) {
    if (task.status !== 'pending') return { ok: false, error: `task ${task.id} is ${task.status}: only a pending task can be (re)assigned` };
    if (change.owner === null) {
      const { owner: _owner, ...rest } = next;
      next = rest;
    } else next.owner = change.owner;
  }
  if (change.status !== undefined && change.status !== task.status) {
    const problem = transitionProblem(task, change.status);
    if (problem) return { ok: false, error: problem };
    if (change.status === 'in_progress') {
      const claim = claimProblem(next, next.owner ?? by, tasks);
      if (claim) return { ok: false, error: claim };
      next.owner = AgentName.parse(next.owner ?? by);
    }
    if (change.status === 'pending') delete next.owner;
    next.status = change.status;
  } else if (change.status !== undefined && change.blocked_by === undefined && change.owner === undefined && change.result === undefined) {
    return { ok: false, error: `task ${task.id} is already ${task.status}` };
  }
  if (change.result !== undefined) next.result = change.result;
  return { ok: true, task: withNote(next, change.note, by, at) };
}

/** Tasks `by` could claim now, best first: those assigned to it, then unowned ones, each oldest first. */
export function claimableFor(by: string, tasks: ReadonlyMap<string, Task>): Task[] {
  const open = [...tasks.values()].filter((task) => claimProblem(task, by, tasks) === undefined);
  const rank = (task: Task) => (task.owner === by ? 0 : 1);
  return open.sort((a, b) => rank(a) - rank(b) || Number(a.id) - Number(b.id));
}

/** The pending tasks that `finished` was the last unfinished blocker of. */
export function unblockedBy(finished: string, tasks: ReadonlyMap<string, Task>): Task[] {
  return [...tasks.values()].filter((task) => task.status === 'pending' && task.blocked_by.includes(finished) && unfinishedBlockers(task, tasks).length === 0);
}
