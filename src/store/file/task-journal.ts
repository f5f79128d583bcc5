import { appendLines, readLines } from './jsonl.js';
import { CREATE_ATTEMPTS, TaskEvent, TaskFold, checkedDraft } from '../task-fold.js';
import type { Task, TaskChange, TaskDraft, TaskResult } from '../tasks.js';
import type { StoredProblem, TaskFilter } from '../team-store.js';

/**
 * The file store's task board: the fold of task-fold.ts over an append-only journal
 * (tasks.jsonl) that every process of the team writes at once, with no lock, as the request
 * journal does. O_APPEND order is the order of events; a writer re-reads after its append to
 * learn whether its event was the one applied. Here: reading and appending lines, and naming
 * each line that cannot be read by its number in the file.
 */
export class TaskJournal {
  private offset = 0;
  /** How many lines the fold has read: the next read's first line is the one after. */
  private line = 0;
  private fold: TaskFold;

  constructor(readonly path: string) {
    this.fold = new TaskFold(path);
  }

  /** Fold in whatever was appended since the last read. */
  refresh(): void {
    let read = readLines(this.path, TaskEvent, this.offset);
    if (read.nextOffset < this.offset) {
      // The journal shrank (replaced by hand): the fold starts over.
      this.offset = 0;
      this.line = 0;
      this.fold = new TaskFold(this.path);
      read = readLines(this.path, TaskEvent, 0);
    }
    for (const problem of read.problems) this.fold.report({ ref: this.ref(this.line + problem.line), reason: `set aside: ${problem.reason}` });
    read.records.forEach((event, index) => this.fold.apply(event, this.ref(this.line + (read.recordLines[index] ?? 0))));
    this.offset = read.nextOffset;
    this.line += read.lines;
  }

  private ref(line: number): string {
    return `${this.path} line ${line}`;
  }

  /** Lines set aside (torn, corrupt, or not a journal event), in the order found: reported, never fatal. */
  problems(): StoredProblem[] {
    this.refresh();
    return this.fold.problems();
  }

  private write(event: TaskEvent): void {
    appendLines(this.path, [TaskEvent.parse(event)]);
    this.refresh();
  }

  create(input: TaskDraft, by: string): Task {
    const draft = checkedDraft(input);
    for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
      this.refresh();
      const event = this.fold.createEvent(draft, by, new Date().toISOString());
      this.write(event);
      const task = this.fold.created(event);
      if (task) return task;
    }
    throw new Error(`cannot create task: ${CREATE_ATTEMPTS} ids in a row were taken by other writers`);
  }

  update(id: string, change: TaskChange, by: string): TaskResult {
    this.refresh();
    const made = this.fold.changeEvent(id, change, by, new Date().toISOString());
    if (!made.ok) return made;
    this.write(made.event);
    return this.fold.changed(made.event);
  }

  claim(by: string, id?: string): TaskResult {
    if (id !== undefined) return this.update(id, { op: 'claim' }, by);
    this.refresh();
    // Another claimer may take each candidate first: go down the list until one is ours.
    const tried = new Set<string>();
    for (;;) {
      const next = this.fold.claimable(by).find((candidate) => !tried.has(candidate));
      if (next === undefined) return { ok: false, error: `no task is ready for ${by} to claim` };
      tried.add(next);
      const result = this.update(next, { op: 'claim' }, by);
      if (result.ok) return result;
    }
  }

  releaseAllOf(owner: string, note: string, by: string): Task[] {
    this.refresh();
    const released: Task[] = [];
    for (const id of this.fold.heldBy(owner)) {
      const result = this.update(id, { op: 'release', note }, by);
      if (result.ok) released.push(result.task);
    }
    return released;
  }

  get(id: string): Task | undefined {
    this.refresh();
    return this.fold.get(id);
  }

  list(filter: TaskFilter = {}): Task[] {
    this.refresh();
    return this.fold.list(filter);
  }
}
