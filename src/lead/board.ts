import { LEAD, summarize, taskNotificationSummary } from '../protocol/index.js';
import { type Subscription, type TeamStore, claimProblem, Task, type TaskBoardStatus } from '../store/index.js';
import { inertLine, oneLine, Refused, EventStream, errorMessage } from '../lib/index.js';
import type { TeamBus } from '../team/index.js';
import { respawnBrief } from './respawn.js';

/** What the lead's board watch needs of the lead's teammates. */
export type BoardTeam = {
  running(): string[];
  /** Running teammates that told the lead they are idle and were given nothing since. */
  idle(): string[];
  problem(what: string, error: unknown): void;
};

type Seen = { status: TaskBoardStatus; owner: string | undefined };

/**
 * The lead follows the board, whoever changes it (its model's tools, a teammate, `teams task`
 * in another shell): a pending task newly assigned to a running teammate is sent to it as a
 * task_assignment naming the board's id, and whenever the board changes or a teammate goes
 * idle, each idle teammate is told of the tasks it may claim now (their blockers all finished:
 * a completed or failed task unblocks its dependents), each task once.
 */
export class LeadBoard {
  private seen: Map<string, Seen> | undefined;
  /** "<name>:<id>": tasks a teammate was sent or told of (a spawn's own task included), never twice. */
  private readonly told = new Set<string>();
  /** The board's set-aside records already reported, by ref and reason: each is reported once. */
  private readonly reported = new Set<string>();
  /** Each task new on the board since the lead started, whoever made it (the task_created hooks run on it). */
  readonly created = new EventStream<Task>();

  constructor(
    private readonly store: TeamStore,
    private readonly bus: TeamBus,
    private readonly team: BoardTeam,
  ) {}

  /**
   * A spawn's task, on the board as the new teammate's and in progress from the start: the
   * lead sends its task_assignment itself, before the process starts, so the watch does not.
   */
  async spawnTask(name: string, subject: string, description: string): Promise<Task> {
    // A subject is one line: the prompt's first line may still hold a tab or a CR.
    const task = await this.store.tasks.create({ subject: oneLine(subject, Task.shape.subject.maxLength ?? 200), description, owner: name }, LEAD);
    this.told.add(`${name}:${task.id}`);
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

  watch(): Promise<Subscription> {
    return this.store.tasks.watch(
      (tasks) => {
        this.look(tasks).catch((error: unknown) => this.team.problem('following the task board', error));
      },
      (error) => this.team.problem('reading the task board', error),
    );
  }

  private async look(tasks: Task[]): Promise<void> {
    await this.reportProblems();
    const before = this.seen;
    this.seen = new Map(tasks.map((task) => [task.id, { status: task.status, owner: task.owner }]));
    // The first look is the board as the lead found it: assignments are news only after it.
    if (before !== undefined) {
      for (const task of tasks) if (!before.has(task.id)) this.created.emit(task);
      const running = new Set(this.team.running());
      for (const task of tasks) {
        const owner = task.owner;
        if (task.status !== 'pending' || owner === undefined || before.get(task.id)?.owner === owner || !running.has(owner)) continue;
        if (this.told.has(`${owner}:${task.id}`)) continue;
        this.told.add(`${owner}:${task.id}`);
        await this.bus.send({ type: 'task_assignment', from: LEAD, to: owner, task_id: task.id, subject: task.subject, description: task.description });
      }
    }
    for (const name of this.team.idle()) await this.offer(name, tasks);
  }

  /** Records of the board that could not be read, each reported (shown and audited) once, the first look's too. */
  private async reportProblems(): Promise<void> {
    for (const problem of await this.store.tasks.problems()) {
      const key = `${problem.ref}\n${problem.reason}`;
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      this.team.problem(`task board ${problem.ref}`, problem.reason);
    }
  }

  /** A teammate just went idle: tell it of any task it may claim that it has not been told of. */
  idled(name: string): void {
    this.store.tasks
      .list()
      .then((tasks) => this.offer(name, tasks))
      .catch((error: unknown) => this.team.problem(`offering ${name} work`, error));
  }

  /** A spawn's teammate did not start: its task is cancelled, saying why, rather than left in progress. */
  async spawnFailed(id: string, name: string, error: unknown): Promise<void> {
    await this.store.tasks.update(id, { op: 'set', status: 'cancelled', note: `${name} did not start: ${errorMessage(error)}` }, LEAD);
  }

  /**
   * Tell an idle teammate of the tasks it may claim now, each once: a task it was told of and
   * left alone is not offered again, so an idle team does not spin.
   */
  private async offer(name: string, tasks: Task[]): Promise<void> {
    const board = new Map(tasks.map((task) => [task.id, task]));
    const fresh = tasks.filter((task) => claimProblem(task, name, board) === undefined && !this.told.has(`${name}:${task.id}`));
    if (fresh.length === 0) return;
    for (const task of fresh) this.told.add(`${name}:${task.id}`);
    const list = fresh.map((task) => `${task.id} "${inertLine(task.subject)}"`).join(', ');
    const text = `Work is available on the task board: ${list}. Claim one with task_claim (task_list shows the board).`;
    await this.bus.send({ type: 'message', from: LEAD, to: name, text, summary: summarize(text) });
  }
}
