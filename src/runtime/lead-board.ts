import { LEAD } from '../protocol/names.js';
import { summarize } from '../protocol/messages.js';
import type { Subscription, TeamStore } from '../store/team-store.js';
import { claimProblem, isFinished, unblockedBy, type Task, type TaskBoardStatus } from '../store/tasks.js';
import type { TeamBus } from '../team/bus.js';
import { taskNotificationSummary } from '../protocol/notices.js';
import { Refused } from '../lib/refused.js';

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
 * task_assignment naming the board's id, and when tasks become ready to claim (their last
 * blocker finished, or they were just put on the board unowned), the idle teammates that may
 * claim them are told that work is available.
 */
export class LeadBoard {
  private seen: Map<string, Seen> | undefined;
  /** "<id>:<owner>" the lead has already sent (a spawn's own task): not sent twice. */
  private readonly sent = new Set<string>();

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
    const task = await this.store.tasks.create({ subject, description, owner: name }, LEAD);
    this.sent.add(`${task.id}:${name}`);
    const taken = await this.store.tasks.update(task.id, { op: 'set', status: 'in_progress' }, LEAD);
    if (!taken.ok) throw new Refused(`the task for ${name} could not be put on the board: ${taken.error}`);
    return taken.task;
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
      const result = `Task ${task.id} "${task.subject}" is back to pending on the board, unowned: another teammate may claim it${crashed === undefined ? '' : `, or respawn ${name}`}.`;
      const status = crashed === undefined ? 'stopped' : 'failed';
      await this.bus.send({ type: 'task_notification', from: name, to: LEAD, task_id: task.id, status, summary: taskNotificationSummary(status, name, crashed), result });
    }
    return released.length;
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
    const before = this.seen;
    const board = new Map(tasks.map((task) => [task.id, task]));
    this.seen = new Map(tasks.map((task) => [task.id, { status: task.status, owner: task.owner }]));
    // The first look is the board as the lead found it: news is what changes after.
    if (before === undefined) return;
    const running = new Set(this.team.running());
    const ready = new Map<string, Task>();
    for (const task of tasks) {
      const was = before.get(task.id);
      const key = `${task.id}:${task.owner ?? ''}`;
      if (task.status === 'pending' && task.owner !== undefined && was?.owner !== task.owner && running.has(task.owner) && !this.sent.has(key)) {
        this.sent.add(key);
        await this.bus.send({ type: 'task_assignment', from: LEAD, to: task.owner, task_id: task.id, subject: task.subject, description: task.description });
      }
      if (isFinished(task.status) && was !== undefined && !isFinished(was.status)) for (const next of unblockedBy(task.id, board)) ready.set(next.id, next);
      if (was === undefined && task.owner === undefined && claimProblem(task, LEAD, board) === undefined) ready.set(task.id, task);
    }
    if (ready.size === 0) return;
    for (const name of this.team.idle()) {
      const theirs = [...ready.values()].filter((task) => claimProblem(task, name, board) === undefined);
      if (theirs.length === 0) continue;
      const list = theirs.map((task) => `${task.id} "${task.subject}"`).join(', ');
      const text = `Work is available on the task board: ${list}. Claim one with task_claim (task_list shows the board).`;
      await this.bus.send({ type: 'message', from: LEAD, to: name, text, summary: summarize(text) });
    }
  }
}
