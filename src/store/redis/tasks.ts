import { CREATE_ATTEMPTS, TaskEvent, TaskFold, checkedDraft } from '../task-fold.js';
import type { Task, TaskChange, TaskDraft, TaskResult } from '../tasks.js';
import type { StoredProblem, Subscription, TaskFilter, TaskStore, WatchProblem } from '../team-store.js';
import { watchJournal } from './journal-watch.js';
import type { RedisTeam } from './redis-team.js';
import { serverNow } from './server-clock.js';
import { appendRecords, entryRef, readRecord, StreamReader } from './stream-journal.js';

/**
 * The task board on Redis: the fold of task-fold.ts over one stream, the team's journal of task
 * events. XADD order is the order of events; a writer reads the stream again after its append to
 * learn whether its event was the one applied, so two claimers of one task get one winner
 * everywhere, and a new task's id is taken the same way. Changes are stamped by the server's
 * clock, the one clock of a team across machines.
 */
export class RedisTasks implements TaskStore {
  private fold: TaskFold;
  private readonly reader: StreamReader;

  constructor(private readonly redis: RedisTeam) {
    const key = redis.keys.tasks;
    const where = `${redis.target.shown} ${key}`;
    this.fold = new TaskFold(where);
    this.reader = new StreamReader(
      redis,
      key,
      (entry) => {
        const read = readRecord(key, entry, TaskEvent);
        if (read.ok) this.fold.apply(read.value, entryRef(key, read.id));
        else this.fold.report({ ref: read.ref, reason: `set aside: ${read.reason}` });
      },
      () => (this.fold = new TaskFold(where)),
    );
  }

  private async now(): Promise<string> {
    return (await serverNow(this.redis.client)).toISOString();
  }

  /** Append one event and fold it in with everything before it. */
  private async write(event: TaskEvent): Promise<void> {
    await appendRecords(this.redis, this.reader.key, [event]);
    await this.reader.refresh();
  }

  async create(input: TaskDraft, by: string): Promise<Task> {
    const draft = checkedDraft(input);
    for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
      const at = await this.now();
      await this.reader.refresh();
      const event = this.fold.createEvent(draft, by, at);
      await this.write(event);
      const task = this.fold.created(event);
      if (task) return task;
    }
    throw new Error(`cannot create task: ${CREATE_ATTEMPTS} ids in a row were taken by other writers`);
  }

  async update(id: string, change: TaskChange, by: string): Promise<TaskResult> {
    const at = await this.now();
    await this.reader.refresh();
    const made = this.fold.changeEvent(id, change, by, at);
    if (!made.ok) return made;
    await this.write(made.event);
    return this.fold.changed(made.event);
  }

  async claim(by: string, id?: string): Promise<TaskResult> {
    if (id !== undefined) return this.update(id, { op: 'claim' }, by);
    await this.reader.refresh();
    // Another claimer may take each candidate first: go down the list until one is ours.
    const tried = new Set<string>();
    for (;;) {
      const next = this.fold.claimable(by).find((candidate) => !tried.has(candidate));
      if (next === undefined) return { ok: false, error: `no task is ready for ${by} to claim` };
      tried.add(next);
      const result = await this.update(next, { op: 'claim' }, by);
      if (result.ok) return result;
    }
  }

  async releaseAllOf(owner: string, note: string, by: string): Promise<Task[]> {
    await this.reader.refresh();
    const released: Task[] = [];
    for (const id of this.fold.heldBy(owner)) {
      const result = await this.update(id, { op: 'release', note }, by);
      if (result.ok) released.push(result.task);
    }
    return released;
  }

  async get(id: string): Promise<Task | undefined> {
    await this.reader.refresh();
    return this.fold.get(id);
  }

  async list(filter?: TaskFilter): Promise<Task[]> {
    await this.reader.refresh();
    return this.fold.list(filter);
  }

  async problems(): Promise<StoredProblem[]> {
    await this.reader.refresh();
    return this.fold.problems();
  }

  async watch(listener: (tasks: Task[]) => void, onProblem: WatchProblem): Promise<Subscription> {
    return watchJournal(this.redis, this.reader.key, async () => listener(await this.list()), onProblem);
  }
}
