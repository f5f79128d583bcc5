import type { StoredProblem, Subscription, TaskFilter, TaskStore, WatchProblem } from '../team-store.js';
import type { Task, TaskChange, TaskDraft, TaskResult } from '../tasks.js';
import { fileLayout, type FileLocation } from './layout.js';
import { asError, lookOnChange } from '../../lib/index.js';
import { TaskJournal } from './task-journal.js';

/** The task board over `tasks.jsonl` (task-journal.ts folds it). */
export class FileTasks implements TaskStore {
  private readonly journal: TaskJournal;

  constructor(location: FileLocation) {
    this.journal = new TaskJournal(fileLayout(location.root).tasks);
  }

  async create(draft: TaskDraft, by: string): Promise<Task> {
    return this.journal.create(draft, by);
  }

  async claim(by: string, id?: string): Promise<TaskResult> {
    return this.journal.claim(by, id);
  }

  async update(id: string, change: TaskChange, by: string): Promise<TaskResult> {
    return this.journal.update(id, change, by);
  }

  async get(id: string): Promise<Task | undefined> {
    return this.journal.get(id);
  }

  async list(filter?: TaskFilter): Promise<Task[]> {
    return this.journal.list(filter);
  }

  async releaseAllOf(owner: string, note: string, by: string): Promise<Task[]> {
    return this.journal.releaseAllOf(owner, note, by);
  }

  async problems(): Promise<StoredProblem[]> {
    return this.journal.problems();
  }

  async watch(listener: (tasks: Task[]) => void, onProblem: WatchProblem): Promise<Subscription> {
    return lookOnChange([this.journal.path], () => {
      let tasks: Task[];
      try {
        tasks = this.journal.list();
      } catch (error) {
        onProblem(asError(error));
        return;
      }
      listener(tasks);
    });
  }
}
