import { LEAD, taskNotificationSummary } from '../protocol/index.js';
import { type Subscription, type TeamStore, Task, type TaskResult } from '../store/index.js';
import { inertLine, oneLine, Refused, errorMessage } from '../lib/index.js';
import type { TeamBus } from '../team/index.js';
import { respawnBrief } from './respawn.js';
import type { LeadInput } from './state.js';

/**
 * The lead's hands on the task board: a spawn's or respawn's own task, the tasks an exited
 * teammate held, and the board read whenever it changes or a teammate goes idle. What is sent
 * to whom because of it is decided by the lead's step (step-board.ts), which this feeds.
 */
export class LeadBoard {
  constructor(
    private readonly store: TeamStore,
    private readonly bus: TeamBus,
    /** The lead takes in what the board says (step.ts). */
    private readonly step: (input: LeadInput) => Promise<void>,
    /** The teammates running now: the only ones the board assigns to or offers work. */
    private readonly running: () => string[],
  ) {}

  private problem(what: string, error: unknown): void {
    void this.step({ type: 'problem', what, reason: errorMessage(error), audited: true });
  }

  /**
   * A spawn's task, on the board as the new teammate's and in progress from the start: the
   * lead sends its task_assignment itself, before the process starts, so the watch does not.
   * The teammate closes it with task_update when its work is done.
   */
  async spawnTask(name: string, subject: string, description: string): Promise<Task> {
    // A subject is one line: the prompt's first line may still hold a tab or a CR.
    const task = await this.store.tasks.create({ subject: oneLine(subject, Task.shape.subject.maxLength ?? 200), description, owner: name }, LEAD);
    await this.step({ type: 'assigned', name, taskId: task.id });
    const taken = await this.store.tasks.update(task.id, { op: 'set', status: 'in_progress' }, LEAD);
    if (!taken.ok) throw new Refused(`the task for ${name} could not be put on the board: ${taken.error}`);
    return taken.task;
  }

  /**
   * A respawned teammate's task: its own task back (`own`, the one the roster says it was
   * spawned with) when that is still open and still its own, taken up again in progress under
   * the same id, so that its work is reported where it began; else, a new task of its own, as
   * a spawn's. Either way its assignment carries the respawn brief.
   */
  async respawnTask(name: string, cancelled: readonly string[], own: string | undefined): Promise<{ task: Task; description: string }> {
    const given = await this.ownTaskBack(name, own);
    const { subject, description } = respawnBrief(cancelled, given?.id);
    return { task: given ?? (await this.spawnTask(name, subject, description)), description };
  }

  /** `own`, in progress again for `name`, when it is still open and still its own. */
  private async ownTaskBack(name: string, own: string | undefined): Promise<Task | undefined> {
    const found = own === undefined ? undefined : await this.store.tasks.get(own);
    if (found?.owner !== name) return undefined;
    if (found.status === 'in_progress') return found;
    if (found.status !== 'pending') return undefined;
    const taken = await this.store.tasks.claim(name, found.id);
    return taken.ok ? taken.task : undefined;
  }

  /**
   * A teammate's process ended (`crashed`: why, else it shut down): its own task (`own`, its
   * spawn's), if it was still in progress, goes back to pending kept for it, so that a respawn
   * gives it back and nobody else takes its brief; the other tasks it had in progress go back
   * to pending, unowned, with a note. The lead's model gets a task_notification for each, by
   * its board id. How many were released.
   */
  async releaseOnExit(name: string, crashed: string | undefined, own?: string): Promise<number> {
    const how = crashed === undefined ? `${name} shut down` : `${name} crashed (${crashed})`;
    const status = crashed === undefined ? 'stopped' : 'failed';
    const released: { task: Task; result: string }[] = [];
    const ownTask = own === undefined ? undefined : await this.store.tasks.get(own);
    if (ownTask?.status === 'in_progress' && ownTask.owner === name) {
      const kept = await this.keepFor(name, ownTask.id, `${how} before closing it`);
      if (kept.ok) released.push({ task: kept.task, result: `Task ${kept.task.id} "${inertLine(kept.task.subject)}", ${name}'s own, is back to pending, kept for ${name}: respawn ${name} to go on with it, or reassign it (task_update assign_to) or cancel it.` });
    }
    for (const task of await this.store.tasks.releaseAllOf(name, `${how}; back to pending`, LEAD)) {
      released.push({ task, result: `Task ${task.id} "${inertLine(task.subject)}" is back to pending on the board, unowned: another teammate may claim it${crashed === undefined ? '' : `, or respawn ${name}`}.` });
    }
    for (const { task, result } of released) {
      await this.bus.send({ type: 'task_notification', from: name, to: LEAD, task_id: task.id, status, summary: taskNotificationSummary(status, name, crashed), result });
    }
    return released.length;
  }

  /**
   * A teammate's process ended: its tasks are released (see releaseOnExit). A crashed teammate
   * that held none still has the lead's model told it failed, under its name.
   */
  async teammateExited(name: string, crashed: string | undefined, own: string | undefined): Promise<void> {
    const released = await this.releaseOnExit(name, crashed, own);
    if (released === 0 && crashed !== undefined) {
      await this.bus.send({ type: 'task_notification', from: name, to: LEAD, task_id: name, status: 'failed', summary: taskNotificationSummary('failed', name, crashed) });
    }
  }

  /** Follow the board, whoever changes it, until closed (when the lead stops). */
  watch(): Promise<Subscription> {
    return this.store.tasks.watch(
      (tasks) => {
        this.look(tasks).catch((error: unknown) => this.problem('following the task board', error));
      },
      (error) => this.problem('reading the task board', error),
    );
  }

  private async look(tasks: Task[]): Promise<void> {
    const problems = await this.store.tasks.problems();
    await this.step({ type: 'board_changed', tasks, problems, running: this.running() });
  }

  /** A teammate just went idle: the board, read for what it may claim. */
  offerTo(name: string): void {
    this.store.tasks
      .list()
      .then((tasks) => this.step({ type: 'board_read', name, tasks }))
      .catch((error: unknown) => this.problem(`offering ${name} work`, error));
  }

  /** `name`'s own task, in progress, back to pending and still its own: nobody else takes its brief, and a respawn gives it back. */
  keepFor(name: string, id: string, why: string): Promise<TaskResult> {
    return this.store.tasks.update(id, { op: 'release', keep_owner: true, note: `${why}; back to pending, kept for ${name}` }, LEAD);
  }

  /** A spawn's teammate did not start: its task is cancelled, saying why, rather than left in progress. */
  async spawnFailed(id: string, name: string, error: unknown): Promise<void> {
    await this.store.tasks.update(id, { op: 'set', status: 'cancelled', note: `${name} did not start: ${errorMessage(error)}` }, LEAD);
  }
}
