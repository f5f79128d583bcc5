import { LEAD, taskNotificationSummary } from '../protocol/index.js';
import { type Subscription, type TeamStore, Task } from '../store/index.js';
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
   * A respawned teammate's first input, on the board as its own task like a spawn's: what it
   * does next is reported under that id. The tasks it held went back to pending at its exit.
   */
  respawnTask(name: string, cancelled: readonly string[]): Promise<Task> {
    const { subject, description } = respawnBrief(cancelled);
    return this.spawnTask(name, subject, description);
  }

  /**
   * A teammate's process ended (`crashed`: why, else it shut down): its tasks in progress go
   * back to pending, unowned, with a note, and the lead's model gets a task_notification for
   * each, by its board id. How many were released.
   */
  async releaseOnExit(name: string, crashed: string | undefined): Promise<number> {
    const note = crashed === undefined ? `${name} shut down; back to pending` : `${name} crashed (${crashed}); back to pending`;
    const released = await this.store.tasks.releaseAllOf(name, note, LEAD);
    for (const task of released) {
      const result = `Task ${task.id} "${inertLine(task.subject)}" is back to pending on the board, unowned: another teammate may claim it${crashed === undefined ? '' : `, or respawn ${name}`}.`;
      const status = crashed === undefined ? 'stopped' : 'failed';
      await this.bus.send({ type: 'task_notification', from: name, to: LEAD, task_id: task.id, status, summary: taskNotificationSummary(status, name, crashed), result });
    }
    return released.length;
  }

  /**
   * A teammate's process ended: its tasks are released (see releaseOnExit). A crashed teammate
   * that held none still has the lead's model told it failed, under its name.
   */
  async teammateExited(name: string, crashed: string | undefined): Promise<void> {
    const released = await this.releaseOnExit(name, crashed);
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

  /** A spawn's teammate did not start: its task is cancelled, saying why, rather than left in progress. */
  async spawnFailed(id: string, name: string, error: unknown): Promise<void> {
    await this.store.tasks.update(id, { op: 'set', status: 'cancelled', note: `${name} did not start: ${errorMessage(error)}` }, LEAD);
  }
}
