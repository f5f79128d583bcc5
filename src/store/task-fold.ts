import * as z from 'zod';
import { newMessageId } from '../protocol/index.js';
import { describeIssues } from '../lib/index.js';
import { applyTaskChange, blockersProblem, claimableFor, Task, TaskChange, TaskDraft, type TaskResult } from './tasks.js';
import type { StoredProblem, TaskFilter } from './team-store.js';

/**
 * The task board as a fold of a journal of events, the same for every backend (the file
 * store's tasks.jsonl, the Redis store's stream). The journal's order is the order of events;
 * the fold applies each change only if the rules (tasks.ts) allow it on the board as it then
 * stands, and ignores the rest. A writer makes its event here, appends it, folds in what the
 * journal then holds and asks here whether its event was the one applied: two claimers of one
 * task get exactly one winner, and every reader agrees on it. Ids are taken the same way: a
 * creation whose id was taken just before it is ignored, and its writer tries the next id.
 */

const CreatedEvent = z.object({ event: z.literal('created'), event_id: z.string().min(1), task: Task });
const ChangedEvent = z.object({ event: z.literal('changed'), event_id: z.string().min(1), task_id: Task.shape.id, by: z.string().min(1), at: z.iso.datetime({ offset: true }), change: TaskChange });

export const TaskEvent = z.discriminatedUnion('event', [CreatedEvent, ChangedEvent]);
export type TaskEvent = z.infer<typeof TaskEvent>;
/** A writer's creation of a task, as it appends it. */
export type TaskCreation = z.infer<typeof CreatedEvent>;
/** A writer's change of a task, as it appends it. */
export type TaskChangeEvent = z.infer<typeof ChangedEvent>;

/** How many times a creator tries the next id when other creators keep taking it first. */
export const CREATE_ATTEMPTS = 1000;

/** A creator's draft, checked: throws, saying what is wrong. */
export function checkedDraft(input: TaskDraft): z.output<typeof TaskDraft> {
  const parsed = TaskDraft.safeParse(input);
  if (!parsed.success) throw new Error(`cannot create task: ${describeIssues(parsed.error, 'task')}`);
  return parsed.data;
}

export class TaskFold {
  private readonly tasks = new Map<string, Task>();
  /** Which event made each task what it is now: a writer's way to tell whether it won. */
  private readonly lastEvent = new Map<string, string>();
  /** Events already folded: one appended twice (a retry after a lost reply) counts once, where it first stands. */
  private readonly seen = new Set<string>();
  private readonly setAside: StoredProblem[] = [];

  /** `where` names the journal in errors, for a person to find it. */
  constructor(private readonly where: string) {}

  /** A stored record that could not be read, found by the backend: kept with the fold's own, in the order found. */
  report(problem: StoredProblem): void {
    this.setAside.push(problem);
  }

  /** Records set aside, in the order found: reported, never fatal. */
  problems(): StoredProblem[] {
    return [...this.setAside];
  }

  /** Fold in the journal's next event; `ref` says where it is stored, for what is reported about it. */
  apply(event: TaskEvent, ref: string): void {
    if (this.seen.has(event.event_id)) return;
    this.seen.add(event.event_id);
    if (event.event === 'created') {
      const { task } = event;
      // A second creation of one id lost the race: its writer tries the next id.
      if (this.tasks.has(task.id)) return;
      const unknown = this.unknownBlockers(task.id, task.blocked_by);
      const problem = blockersProblem(task.id, task.blocked_by.filter((id) => !unknown.includes(id)), this.tasks);
      if (problem !== undefined) {
        // No writer makes such a record (it checks first): a hand edit. Said, not guessed at.
        this.setAside.push({ ref, reason: `${problem}; the task is left out` });
        return;
      }
      this.tasks.set(task.id, task);
      this.lastEvent.set(task.id, event.event_id);
      this.reportUnknown(task.id, unknown, ref);
      return;
    }
    const task = this.tasks.get(event.task_id);
    if (!task) return;
    const { change } = event;
    // New blockers not on the board: the rules judge the change on those that are, and the
    // unknown ones are kept, so the task still waits on them.
    const unknown = change.op === 'set' && change.blocked_by !== undefined ? this.unknownBlockers(task.id, change.blocked_by) : [];
    const judged = unknown.length === 0 || change.op !== 'set' ? change : { ...change, blocked_by: change.blocked_by?.filter((id) => !unknown.includes(id)) };
    const result = applyTaskChange(task, judged, event.by, event.at, this.tasks);
    if (!result.ok) return;
    const next = unknown.length === 0 ? result.task : { ...result.task, blocked_by: [...new Set([...result.task.blocked_by, ...unknown])] };
    this.tasks.set(task.id, next);
    this.lastEvent.set(task.id, event.event_id);
    this.reportUnknown(task.id, unknown, ref);
  }

  /**
   * Blockers named by a record read back that are not on the board. A writer names only tasks
   * on its board, so such a blocker's own record was set aside: the task is kept, blocked (an
   * unknown blocker never counts as finished), rather than lost with it.
   */
  private unknownBlockers(id: string, blockedBy: readonly string[]): string[] {
    return [...new Set(blockedBy)].filter((blocker) => blocker !== id && !this.tasks.has(blocker));
  }

  private reportUnknown(id: string, unknown: readonly string[], ref: string): void {
    if (unknown.length === 0) return;
    const which = `task${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`;
    this.setAside.push({ ref, reason: `task ${id} is blocked by ${which}, not on the board (set aside?): it stays blocked until its blockers are changed` });
  }

  /** The creation of a new task with the next free id, at `at`, to append. Throws on blockers the board refuses. */
  createEvent(draft: z.output<typeof TaskDraft>, by: string, at: string): TaskCreation {
    // An id named only as a blocker (its own record set aside) is taken too: a new task must not become it.
    const taken = [...this.tasks.values()].flatMap((task) => [task.id, ...task.blocked_by]);
    const id = String(Math.max(0, ...taken.map(Number)) + 1);
    const problem = blockersProblem(id, draft.blocked_by, this.tasks);
    if (problem) throw new Error(`cannot create task: ${problem}`);
    const task: Task = { id, subject: draft.subject, description: draft.description, status: 'pending', blocked_by: [...new Set(draft.blocked_by)], created_by: by, created_at: at, updated_at: at };
    if (draft.owner !== undefined) task.owner = draft.owner;
    return CreatedEvent.parse({ event: 'created', event_id: newMessageId(), task });
  }

  /** After `event` (from createEvent) was appended and folded: the task, or undefined when another creator took its id first. */
  created(event: TaskCreation): Task | undefined {
    return this.lastEvent.get(event.task.id) === event.event_id ? structuredClone(event.task) : undefined;
  }

  /** The change of task `id` by `by` at `at`, to append; or why the rules refuse it on the board as it stands. */
  changeEvent(id: string, input: TaskChange, by: string, at: string): { ok: true; event: TaskChangeEvent } | { ok: false; error: string } {
    const parsed = TaskChange.safeParse(input);
    if (!parsed.success) return { ok: false, error: `task ${id}: ${describeIssues(parsed.error, 'change')}` };
    const change = parsed.data;
    const task = this.tasks.get(id);
    if (!task) return { ok: false, error: `unknown task ${id}` };
    const check = applyTaskChange(task, change, by, at, this.tasks);
    if (!check.ok) return check;
    return { ok: true, event: ChangedEvent.parse({ event: 'changed', event_id: newMessageId(), task_id: id, by, at, change }) };
  }

  /** After `event` (from changeEvent) was appended and folded: the changed task, or, when another writer's change landed first, why ours no longer applies. */
  changed(event: TaskChangeEvent): TaskResult {
    const now = this.tasks.get(event.task_id);
    if (!now) return { ok: false, error: `unknown task ${event.task_id}` };
    if (this.lastEvent.get(event.task_id) === event.event_id) return { ok: true, task: structuredClone(now) };
    // Another writer's change landed first: ours was judged against the board it left.
    const lost = applyTaskChange(now, event.change, event.by, event.at, this.tasks);
    return lost.ok ? { ok: false, error: `task ${event.task_id}: the change was written but is not in ${this.where}; see problems()` } : lost;
  }

  /** The ids of the tasks `by` could claim now, best first (tasks.ts claimableFor). */
  claimable(by: string): string[] {
    return claimableFor(by, this.tasks).map((task) => task.id);
  }

  /** The ids of the tasks `owner` has in progress: what releasing it puts back. */
  heldBy(owner: string): string[] {
    return [...this.tasks.values()].filter((task) => task.status === 'in_progress' && task.owner === owner).map((task) => task.id);
  }

  get(id: string): Task | undefined {
    const task = this.tasks.get(id);
    return task && structuredClone(task);
  }

  list(filter: TaskFilter = {}): Task[] {
    return [...this.tasks.values()]
      .filter((task) => (filter.status === undefined || task.status === filter.status) && (filter.owner === undefined || task.owner === filter.owner))
      .sort((a, b) => Number(a.id) - Number(b.id))
      .map((task) => structuredClone(task));
  }
}
