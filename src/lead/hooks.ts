import { errorMessage } from '../lib/index.js';
import type { EventStream } from '../lib/index.js';
import { type Draft, type Envelope, LEAD } from '../protocol/index.js';
import type { TeamStore } from '../store/index.js';
import { hookOutcome, type HookVerdict, runHookProcess, type HookEvent, type HookSpec } from '../hooks/index.js';
import type { LeadEvent } from './events.js';
import type { Launcher } from '../sandbox/index.js';
import { loadProjectHooks } from './project-settings.js';
import { reportProblem } from './report-problem.js';
import { settleCompletion } from './completion.js';

/**
 * What the lead does with a teammate's message once its hooks have spoken: `route` it as usual,
 * or count the teammate as `working` again (a hook sent it back to work). A message routed
 * `late` was overtaken by later traffic with its sender, which says where it stands now: it
 * changes nothing of the sender's idle state.
 */
export type HookedLead = { route: (envelope: Envelope, late?: boolean) => void; working: (name: string) => void };


/**
 * How many times in a row a blocking hook may send one teammate back to work, for its stop or
 * for one task: each time costs a model turn, so a hook that always says no must not spend
 * without end. Past it, the stop goes through; a completion stays refused, and its further
 * reports are dropped unchecked (the human decides). Reset whenever the hook lets it pass.
 */
export const MAX_HOOK_REFUSALS = 5;

/** What every hook reads on stdin besides the event's own fields. */
export type HookPayload = Record<string, unknown>;

export type LeadHooksDeps = {
  home: string;
  team: string;
  /** The project's working directory: where hooks run. */
  cwd: string;
  /** How a hook starts: in the sandbox the lead's own commands get (hook-process.ts). */
  launch: Launcher;
  store: TeamStore;
  events: EventStream<LeadEvent>;
  send: (draft: Draft) => Promise<unknown>;
  /** Every message the lead's process sends: one to a teammate whose idle hooks run makes that stop stale. */
  sent: EventStream<Envelope>;
};

/** The fields every envelope has: a hook gets the message's content, and who sent it when. */
const HEAD = new Set(['type', 'id', 'from', 'to', 'timestamp', 'signature']);

/**
 * The project's hooks, run by the lead process: read from the settings file at each event (a
 * change applies to the next one), one hook after another in the order written, and the runs
 * of one event in the order the events came, while the lead goes on with everything else.
 *
 * `teammate_idle`, `task_completed` (a teammate's report that it completed a board task),
 * `plan_submitted` and `permission_requested` are wired here (`receive`); the board watch
 * calls `taskCreated` for each new task. `task_created` is notify-only, like `plan_submitted`
 * and `permission_requested`: their hooks' exit 2 is a failure to report.
 */
export class LeadHooks {
  private readonly queues = new Map<HookEvent, Promise<unknown>>();
  /** The last configuration problem shown: a broken file is reported once, not at every event. */
  private lastConfigProblem: string | undefined;
  /** Messages from or to each teammate so far: what it did after an idle notification whose hooks still run. */
  private readonly traffic = new Map<string, number>();
  /** Aborted when the lead stops: a running hook's group is killed, and no further hook starts. */
  private readonly stopped = new AbortController();
  /** Refusals in a row, by "<event>:<teammate>[:<task id>]" (MAX_HOOK_REFUSALS). */
  private readonly refusals = new Map<string, number>();
  /** Completion reports whose checks still run ("<from>:<task id>"): the team is not quiet meanwhile, as a hook may send a teammate back to work. */
  private readonly settling = new Set<string>();

  constructor(private readonly deps: LeadHooksDeps) {
    // An interrupt or new rules start no turn: an idle teammate stays idle (as LeadTeammates counts it).
    deps.sent.subscribe((envelope) => {
      if (envelope.type !== 'interrupt' && envelope.type !== 'rules_set') this.count(envelope.to);
    });
  }

  private count(name: string): number {
    const next = (this.traffic.get(name) ?? 0) + 1;
    this.traffic.set(name, next);
    return next;
  }

  /** The event's hooks as the file says now; none, reported, when the file is malformed. */
  hooksFor(event: HookEvent): HookSpec[] {
    try {
      const hooks = loadProjectHooks(this.deps.home)[event] ?? [];
      this.lastConfigProblem = undefined;
      return hooks;
    } catch (error) {
      const text = errorMessage(error);
      if (text !== this.lastConfigProblem) reportProblem(this.deps.store, this.deps.events, 'hooks not run (fix the settings file)', text);
      this.lastConfigProblem = text;
      return [];
    }
  }

  /**
   * Run the event's hooks in order, after those of earlier events of the same name; the first
   * that blocks ends the run (the event did not happen, so the later ones have nothing to
   * check). Never rejects: a failing hook is audited and reported, and counts as not blocking.
   */
  run(event: HookEvent, payload: HookPayload, agent?: string): Promise<HookVerdict> {
    const previous = this.queues.get(event) ?? Promise.resolve();
    const next = previous.then(() => this.runNow(event, payload, agent));
    this.queues.set(event, next);
    return next;
  }

  /** The event's hooks for a message that reached the lead: its content, who sent it, when. */
  runOn(event: HookEvent, envelope: Envelope): Promise<HookVerdict> {
    const content = Object.fromEntries(Object.entries(envelope).filter(([key]) => !HEAD.has(key)));
    return this.run(event, { teammate: envelope.from, message_id: envelope.id, sent_at: envelope.timestamp, ...content }, envelope.from);
  }

  /**
   * A teammate's message reaching the lead. An idle notification waits for the teammate_idle
   * hooks: until they pass, the teammate counts as busy and the lead's model has not heard it
   * stopped, since a hook may send it back to work (then it is `keptWorking`, told why). Other
   * messages are routed at once; a plan or a permission request also starts its notify-only hooks.
   */
  receive(envelope: Envelope, lead: HookedLead): void {
    const seen = this.count(envelope.from);
    if (envelope.type === 'idle_notification' && this.hooksFor('teammate_idle').length > 0) {
      void this.runOn('teammate_idle', envelope).then(async (verdict) => {
        const inARow = this.tally(`teammate_idle:${envelope.from}`, verdict.blocked);
        if (verdict.blocked && inARow > MAX_HOOK_REFUSALS) {
          this.tally(`teammate_idle:${envelope.from}`, false);
          const why = `it refused ${envelope.from}'s stop ${MAX_HOOK_REFUSALS} times in a row, so this stop goes through (fix the hook, or tell ${envelope.from} what to do)`;
          reportProblem(this.deps.store, this.deps.events, `hook on teammate_idle \`${verdict.command}\``, why);
        } else if (verdict.blocked) {
          await this.tellBlocked(envelope.from, 'teammate_idle', verdict).catch((error: unknown) =>
            reportProblem(this.deps.store, this.deps.events, `the hook's feedback to ${envelope.from} was not sent`, String(error)),
          );
          return this.keptWorking(envelope, lead);
        }
        // Sent work or heard from meanwhile, it is not idle any more: counting it so could end `teams run` under it.
        if (this.traffic.get(envelope.from) !== seen) return this.keptWorking(envelope, lead);
        lead.route(envelope);
      });
      return;
    }
    if (envelope.type === 'task_notification' && envelope.status === 'completed') return this.settle(envelope, lead);
    lead.route(envelope);
    if (envelope.type === 'plan_approval_request') void this.runOn('plan_submitted', envelope);
    if (envelope.type === 'permission_request') void this.runOn('permission_requested', envelope);
  }

  /** An idle notification a hook made stale: the human sees it came, and the teammate counts as working. */
  private keptWorking(envelope: Envelope, lead: HookedLead): void {
    lead.working(envelope.from);
    this.deps.events.emit({ type: 'message', envelope });
  }

  /** Whether a completion report is still being checked: the team is not done meanwhile. */
  busy(): boolean {
    return this.settling.size > 0;
  }

  /**
   * A teammate reports a task completed: the board records it once the task_completed hooks
   * pass, and only then does the lead's model hear of it. Refused, the task stays in progress,
   * the teammate is sent the hook's stderr and counts as working again.
   */
  private settle(envelope: Extract<Envelope, { type: 'task_notification' }>, lead: HookedLead): void {
    const { from, task_id } = envelope;
    const key = `${from}:${task_id}`;
    // The same report again while the first is checked: the hooks (a test suite, say) run once, and the answer is the first's.
    if (this.settling.has(key)) return this.deps.events.emit({ type: 'notice', text: `${from} reported task ${task_id} completed again while its checks run: the repeat is dropped` });
    if ((this.refusals.get(`task_completed:${key}`) ?? 0) >= MAX_HOOK_REFUSALS) {
      return this.deps.events.emit({ type: 'notice', text: `${from} reported task ${task_id} completed again, after ${MAX_HOOK_REFUSALS} refusals in a row: dropped unchecked; complete, reassign or cancel it yourself` });
    }
    this.settling.add(key);
    const seen = this.traffic.get(from);
    // The lead stopping kills the hooks: a completion they did not pass is not recorded, however
    // often it is reported, and its task is released when its teammate goes. With no hook to
    // pass, there is nothing to skip: it is recorded.
    let unchecked = false;
    const check = async (task: { id: string } & Record<string, unknown>, owner: string) => {
      const verdict = this.stopped.signal.aborted ? { blocked: false } : await this.taskCompleted({ ...task, result: envelope.result }, owner);
      unchecked = this.stopped.signal.aborted && this.hooksFor('task_completed').length > 0;
      return { blocked: verdict.blocked || unchecked };
    };
    void settleCompletion(envelope, this.deps.store.tasks, check)
      .then((outcome) => {
        if (outcome.kind === 'blocked') {
          // Not shown as the teammate's message: the lead's model and the human hear only of completions the board records.
          lead.working(from);
          const why = unchecked ? 'the team is stopping, so its task_completed hooks did not run' : `a task_completed hook refused ${from}'s completion, and told ${from} why`;
          return this.deps.events.emit({ type: 'notice', text: `task ${task_id} stays in progress: ${why}` });
        }
        if (outcome.kind === 'failed') reportProblem(this.deps.store, this.deps.events, `${from}'s completion of task ${task_id} was not recorded`, outcome.error);
        // Its idle notification, sent after this report, may have been routed meanwhile: this must not undo it.
        lead.route(envelope, this.traffic.get(from) !== seen);
      })
      .catch((error: unknown) => {
        reportProblem(this.deps.store, this.deps.events, `${from}'s completion of task ${task_id} was not recorded`, String(error));
        lead.route(envelope, this.traffic.get(from) !== seen);
      })
      .finally(() => this.settling.delete(key));
  }

  /**
   * The task_completed hooks, on the task as the board holds it with the result reported. On
   * `{blocked: true}` the owner has been sent the hook's stderr already and goes back to work.
   */
  async taskCompleted(task: { id: string } & Record<string, unknown>, owner: string): Promise<HookVerdict> {
    const verdict = await this.run('task_completed', { teammate: owner, task }, owner);
    const inARow = this.tally(`task_completed:${owner}:${task.id}`, verdict.blocked);
    if (verdict.blocked) {
      const last = inARow >= MAX_HOOK_REFUSALS;
      const stop = `\n\nThat is ${inARow} refusals in a row: do not report task ${task.id} completed again. Tell the lead what stands in the way, then wait.`;
      await this.tellBlocked(owner, 'task_completed', last ? { ...verdict, feedback: verdict.feedback + stop } : verdict, task.id).catch((error: unknown) =>
        reportProblem(this.deps.store, this.deps.events, `the hook's feedback to ${owner} was not sent`, String(error)),
      );
      if (last) reportProblem(this.deps.store, this.deps.events, `hook on task_completed \`${verdict.command}\``, `it refused ${owner}'s completion of task ${task.id} ${inARow} times in a row; further reports of it are dropped: complete, reassign or cancel it yourself`);
    }
    return verdict;
  }

  /** Count a verdict on `key`: the refusals in a row so far, 0 once the hook lets it pass. */
  private tally(key: string, blocked: boolean): number {
    const inARow = blocked ? (this.refusals.get(key) ?? 0) + 1 : 0;
    if (inARow === 0) this.refusals.delete(key);
    else this.refusals.set(key, inARow);
    return inARow;
  }

  /** Notify-only: call once a task is on the board; nothing waits for it. */
  taskCreated(task: { id: string } & Record<string, unknown>): void {
    void this.run('task_created', { task });
  }

  /** The lead is stopping: kill the hooks running now (nothing outlives the lead), start no more. */
  close(): void {
    this.stopped.abort();
  }

  /** A blocking hook's feedback to the teammate, signed by the lead: its model reads it and goes back to work. */
  async tellBlocked(to: string, event: 'teammate_idle' | 'task_completed', verdict: { command: string; feedback: string }, taskId?: string): Promise<void> {
    await this.deps.send({ type: 'hook_feedback', from: LEAD, to, event, command: verdict.command, feedback: verdict.feedback, ...(taskId === undefined ? {} : { task_id: taskId }) });
  }

  private async runNow(event: HookEvent, payload: HookPayload, agent: string | undefined): Promise<HookVerdict> {
    const input = `${JSON.stringify({ event, team: this.deps.team, cwd: this.deps.cwd, ...payload })}\n`;
    for (const hook of this.hooksFor(event)) {
      if (this.stopped.signal.aborted) break;
      const grant = { write: hook.write, network: hook.network };
      const run = await runHookProcess(hook.command, { cwd: this.deps.cwd, input, timeoutS: hook.timeout, launch: this.deps.launch, grant, signal: this.stopped.signal });
      const outcome = hookOutcome(event, run.exit, run.stderr);
      await this.deps.store.audit
        .append({
          event: 'hook',
          hook_event: event,
          command: hook.command,
          ...(agent === undefined ? {} : { agent }),
          outcome: outcome.status,
          exit_code: run.exit.kind === 'exited' ? run.exit.code : null,
          ...(outcome.status === 'failed' ? { reason: outcome.reason } : {}),
          stdout: run.stdout,
          stderr: run.stderr,
        })
        .catch((error: unknown) => reportProblem(this.deps.store, this.deps.events, 'a hook run was not audited', String(error)));
      if (outcome.status === 'failed') reportProblem(this.deps.store, this.deps.events, `hook on ${event} \`${hook.command}\``, outcome.reason);
      if (outcome.status === 'blocked') return { blocked: true, command: hook.command, feedback: outcome.feedback };
    }
    return { blocked: false };
  }
}
