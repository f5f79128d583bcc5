import { errorMessage } from '../lib/index.js';
import type { Envelope } from '../protocol/index.js';
import type { TeamStore } from '../store/index.js';
import { hookOutcome, type HookVerdict, runHookProcess, type HookEvent, type HookSpec } from '../hooks/index.js';
import type { Launcher } from '../sandbox/index.js';
import { loadProjectHooks } from './project-settings.js';
import { settleCompletion } from './completion.js';
import type { CompletionReportEnvelope, IdleNotification, LeadInput } from './state.js';

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
  /** The lead takes each verdict in (step.ts): what a refusal means is decided there, not here. */
  step: (input: LeadInput) => Promise<void>;
};

/** The fields every envelope has: a hook gets the message's content, and who sent it when. */
const HEAD = new Set(['type', 'id', 'from', 'to', 'timestamp', 'signature']);

/**
 * The project's hooks, run by the lead process: read from the settings file at each event (a
 * change applies to the next one), one hook after another in the order written, and the runs
 * of one event in the order the events came, while the lead goes on with everything else.
 *
 * An executor of the lead's effects (effects.ts): `teammate_idle` (`checkIdle`),
 * `task_completed` (`checkCompletion`, a teammate's report that it completed a board task),
 * `plan_submitted` and `permission_requested` (`notify`) and `task_created` (`taskCreated`).
 * Each verdict goes back to the lead as an input; what it means is decided there.
 * `task_created` is notify-only, like `plan_submitted` and `permission_requested`: their
 * hooks' exit 2 is a failure to report.
 */
export class LeadHooks {
  private readonly queues = new Map<HookEvent, Promise<unknown>>();
  /** The last configuration problem shown: a broken file is reported once, not at every event. */
  private lastConfigProblem: string | undefined;
  /** Aborted when the lead stops: a running hook's group is killed, and no further hook starts. */
  private readonly stopped = new AbortController();

  constructor(private readonly deps: LeadHooksDeps) {}

  /** Shown and audited: nothing waits for it. */
  private problem(what: string, reason: string): void {
    void this.deps.step({ type: 'problem', what, reason, audited: true });
  }

  /** The event's hooks as the file says now; none, reported, when the file is malformed. */
  hooksFor(event: HookEvent): HookSpec[] {
    try {
      const hooks = loadProjectHooks(this.deps.home)[event] ?? [];
      this.lastConfigProblem = undefined;
      return hooks;
    } catch (error) {
      const text = errorMessage(error);
      if (text !== this.lastConfigProblem) this.problem('hooks not run (fix the settings file)', text);
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
  private runOn(event: HookEvent, envelope: Envelope): Promise<HookVerdict> {
    const content = Object.fromEntries(Object.entries(envelope).filter(([key]) => !HEAD.has(key)));
    return this.run(event, { teammate: envelope.from, message_id: envelope.id, sent_at: envelope.timestamp, ...content }, envelope.from);
  }

  /** Notify-only hooks on a message that reached the lead: nothing waits for them. */
  notify(event: 'plan_submitted' | 'permission_requested', envelope: Envelope): void {
    void this.runOn(event, envelope);
  }

  /** An idle notification's teammate_idle hooks: their verdict goes back to the lead (`seen`: the sender's traffic as it arrived). */
  checkIdle(envelope: IdleNotification, seen: number): void {
    void this.runOn('teammate_idle', envelope).then((verdict) => this.deps.step({ type: 'idle_checked', envelope, seen, verdict }));
  }

  /**
   * A teammate reports a task completed: the board records it once the task_completed hooks
   * pass (completion.ts), and the outcome goes back to the lead. The lead stopping kills the
   * hooks: a completion they did not pass is not recorded, however often it is reported, and
   * its task is released when its teammate goes. With no hook to pass, there is nothing to
   * skip: it is recorded.
   */
  checkCompletion(envelope: CompletionReportEnvelope, seen: number): void {
    let unchecked = false;
    const check = async (task: { id: string } & Record<string, unknown>, owner: string) => {
      const verdict = this.stopped.signal.aborted ? { blocked: false } : await this.taskCompleted({ ...task, result: envelope.result }, owner);
      unchecked = this.stopped.signal.aborted && this.hooksFor('task_completed').length > 0;
      return { blocked: verdict.blocked || unchecked };
    };
    void settleCompletion(envelope, this.deps.store.tasks, check)
      .catch((error: unknown) => ({ kind: 'error' as const, error: String(error) }))
      .then((outcome) => this.deps.step({ type: 'completion_settled', envelope, seen, outcome, unchecked }));
  }

  /**
   * The task_completed hooks, on the task as the board holds it with the result reported. On
   * `{blocked: true}` the owner has been sent the hook's stderr already and goes back to work.
   */
  async taskCompleted(task: { id: string } & Record<string, unknown>, owner: string): Promise<HookVerdict> {
    const verdict = await this.run('task_completed', { teammate: owner, task }, owner);
    await this.deps.step({ type: 'completion_verdict', owner, taskId: task.id, verdict });
    return verdict;
  }

  /** Notify-only: call once a task is on the board; nothing waits for it. */
  taskCreated(task: { id: string } & Record<string, unknown>): void {
    void this.run('task_created', { task });
  }

  /** The lead is stopping: kill the hooks running now (nothing outlives the lead), start no more. */
  close(): void {
    this.stopped.abort();
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
        .catch((error: unknown) => this.problem('a hook run was not audited', String(error)));
      if (outcome.status === 'failed') this.problem(`hook on ${event} \`${hook.command}\``, outcome.reason);
      if (outcome.status === 'blocked') return { blocked: true, command: hook.command, feedback: outcome.feedback };
    }
    return { blocked: false };
  }
}
