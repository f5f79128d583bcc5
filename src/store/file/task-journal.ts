import * as z from 'zod';
import { newMessageId } from '../../protocol/index.js';
import { appendLines, readLines } from './jsonl.js';
import { describeIssues } from '../../lib/index.js';
import { applyTaskChange, blockersProblem, claimableFor, Task, TaskChange, TaskDraft, type TaskResult } from '../tasks.js';
import type { StoredProblem, TaskFilter } from '../team-store.js';

/**
 * The file store's task board: a fold of an append-only journal (tasks.jsonl) that every
 * process of the team writes at once, with no lock, as the request journal does. O_APPEND order
 * is the order of events; the fold applies each change only if the rules (tasks.ts) allow it
 * on the board as it then stands, and ignores the rest. A writer re-reads after its append to
 * learn whether its event was the one applied, so two claimers of one task get exactly one
 * winner, and every reader agrees on it. Ids are taken the same way: a creation whose id was
 * taken just before it is ignored, and its writer tries the next id.
 */

const JournalEvent = z.discriminatedUnion('event', [
  z.object({ event: z.literal('created'), event_id: z.string().min(1), task: Task }),
  z.object({ event: z.literal('changed'), event_id: z.string().min(1), task_id: Task.shape.id, by: z.string().min(1), at: z.iso.datetime({ offset: true }), change: TaskChange }),
]);
type JournalEvent = z.infer<typeof JournalEvent>;

/** How many times a creator tries the next id when other creators keep taking it first. */
const CREATE_ATTEMPTS = 1000;

export class TaskJournal {
  private offset = 0;
  /** How many lines the fold has read: the next read's first line is the one after. */
  private line = 0;
  private tasks = new Map<string, Task>();
  /** Which event made each task what it is now: a writer's way to tell whether it won. */
  private lastEvent = new Map<string, string>();
  private setAside: StoredProblem[] = [];

  constructor(readonly path: string) {}

  /** Fold in whatever was appended since the last read. */
  refresh(): void {
    let read = readLines(this.path, JournalEvent, this.offset);
    if (read.nextOffset < this.offset) {
      // The journal shrank (replaced by hand): the fold starts over.
      this.offset = 0;
      this.line = 0;
      this.tasks = new Map();
      this.lastEvent = new Map();
      this.setAside = [];
      read = readLines(this.path, JournalEvent, 0);
    }
    for (const problem of read.problems) this.setAside.push({ ref: this.ref(this.line + problem.line), reason: `set aside: ${problem.reason}` });
    read.records.forEach((event, index) => this.apply(event, this.line + (read.recordLines[index] ?? 0)));
    this.offset = read.nextOffset;
    this.line += read.lines;
  }

  private apply(event: JournalEvent, line: number): void {
    if (event.event === 'created') {
      const { task } = event;
      // A second creation of one id lost the race: its writer tries the next id.
      if (this.tasks.has(task.id)) return;
      const unknown = this.unknownBlockers(task.id, task.blocked_by);
      const problem = blockersProblem(task.id, task.blocked_by.filter((id) => !unknown.includes(id)), this.tasks);
      if (problem !== undefined) {
        // No writer makes such a line (it checks first): a hand edit. Said, not guessed at.
        this.setAside.push({ ref: this.ref(line), reason: `${problem}; the task is left out` });
        return;
      }
      this.tasks.set(task.id, task);
      this.lastEvent.set(task.id, event.event_id);
      this.reportUnknown(task.id, unknown, line);
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
    this.reportUnknown(task.id, unknown, line);
  }

  /**
   * Blockers named by a line read back that are not on the board. A writer names only tasks
   * on its board, so such a blocker's own line was set aside: the task is kept, blocked (an
   * unknown blocker never counts as finished), rather than lost with it.
   */
  private unknownBlockers(id: string, blockedBy: readonly string[]): string[] {
    return [...new Set(blockedBy)].filter((blocker) => blocker !== id && !this.tasks.has(blocker));
  }

  private reportUnknown(id: string, unknown: readonly string[], line: number): void {
    if (unknown.length === 0) return;
    const which = `task${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`;
    this.setAside.push({ ref: this.ref(line), reason: `task ${id} is blocked by ${which}, not on the board (set aside?): it stays blocked until its blockers are changed` });
  }

  private ref(line: number): string {
    return `${this.path} line ${line}`;
  }

  /** Lines set aside (torn, corrupt, or not a journal event), in the order found: reported, never fatal. */
  problems(): StoredProblem[] {
    this.refresh();
    return [...this.setAside];
  }

  private write(event: JournalEvent): void {
    appendLines(this.path, [JournalEvent.parse(event)]);
    this.refresh();
  }

  create(input: TaskDraft, by: string): Task {
    const parsed = TaskDraft.safeParse(input);
    if (!parsed.success) throw new Error(`cannot create task: ${describeIssues(parsed.error, 'task')}`);
    const draft = parsed.data;
    for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
      this.refresh();
      // An id named only as a blocker (its own line set aside) is taken too: a new task must not become it.
      const taken = [...this.tasks.values()].flatMap((task) => [task.id, ...task.blocked_by]);
      const id = String(Math.max(0, ...taken.map(Number)) + 1);
      const problem = blockersProblem(id, draft.blocked_by, this.tasks);
      if (problem) throw new Error(`cannot create task: ${problem}`);
      const at = new Date().toISOString();
      const task: Task = { id, subject: draft.subject, description: draft.description, status: 'pending', blocked_by: [...new Set(draft.blocked_by)], created_by: by, created_at: at, updated_at: at };
      if (draft.owner !== undefined) task.owner = draft.owner;
      const event_id = newMessageId();
      this.write({ event: 'created', event_id, task });
      if (this.lastEvent.get(id) === event_id) return structuredClone(task);
    }
    throw new Error(`cannot create task: ${CREATE_ATTEMPTS} ids in a row were taken by other writers`);
  }

  update(id: string, input: TaskChange, by: string): TaskResult {
    const parsed = TaskChange.safeParse(input);
    if (!parsed.success) return { ok: false, error: `task ${id}: ${describeIssues(parsed.error, 'change')}` };
    const change = parsed.data;
    this.refresh();
    const task = this.tasks.get(id);
    if (!task) return { ok: false, error: `unknown task ${id}` };
    const at = new Date().toISOString();
    const check = applyTaskChange(task, change, by, at, this.tasks);
    if (!check.ok) return check;
    const event_id = newMessageId();
    this.write({ event: 'changed', event_id, task_id: id, by, at, change });
    const now = this.tasks.get(id) ?? task;
    if (this.lastEvent.get(id) === event_id) return { ok: true, task: structuredClone(now) };
    // Another writer's change landed first: ours was judged against the board it left.
    const lost = applyTaskChange(now, change, by, at, this.tasks);
    return lost.ok ? { ok: false, error: `task ${id}: the change was written but is not in ${this.path}; see problems()` } : lost;
  }

  claim(by: string, id?: string): TaskResult {
    if (id !== undefined) return this.update(id, { op: 'claim' }, by);
    this.refresh();
    // Another claimer may take each candidate first: go down the list until one is ours.
    const tried = new Set<string>();
    for (;;) {
      const next = claimableFor(by, this.tasks).find((task) => !tried.has(task.id));
      if (!next) return { ok: false, error: `no task is ready for ${by} to claim` };
      tried.add(next.id);
      const result = this.update(next.id, { op: 'claim' }, by);
      if (result.ok) return result;
    }
  }

  releaseAllOf(owner: string, note: string, by: string): Task[] {
    this.refresh();
    const released: Task[] = [];
    for (const task of [...this.tasks.values()]) {
      if (task.status !== 'in_progress' || task.owner !== owner) continue;
      const result = this.update(task.id, { op: 'release', note }, by);
      if (result.ok) released.push(result.task);
    }
    return released;
  }

  get(id: string): Task | undefined {
    this.refresh();
    const task = this.tasks.get(id);
    return task && structuredClone(task);
  }

  list(filter: TaskFilter = {}): Task[] {
    this.refresh();
    return [...this.tasks.values()]
      .filter((task) => (filter.status === undefined || task.status === filter.status) && (filter.owner === undefined || task.owner === filter.owner))
      .sort((a, b) => Number(a.id) - Number(b.id))
      .map((task) => structuredClone(task));
  }
}
