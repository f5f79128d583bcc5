import { loadProjectRules, loadProjectSandbox } from './project-settings.js';
import { rmSync } from 'node:fs';
import { AgentLoop, openConversation } from '../agent/index.js';
import { EventStream, createSerial, type Serial, isRunning, errorMessage } from '../lib/index.js';
import { openModel, type OpenModel, childModelEnv, teammateModel, type ModelSettings, contextWindowOf } from '../model/index.js';
import { createLeadLoop, leadLauncher, sandboxStatus } from './agent.js';
import { type Envelope, type PermissionMode, LEAD, createSigner, KeyRing, verifySender, newSessionId } from '../protocol/index.js';
import { describeStatus, type SandboxNetwork, type SandboxStatus } from '../sandbox/index.js';
import { TeamBus, pricedTurn, type TeamPaths } from '../team/index.js';
import { addMemberUsage, setMemberStatus, type TeamStore } from '../store/index.js';
import { issueControlToken, startControlServer } from './control.js';
import { answerOverSocket } from './control-answer.js';
import type { LeadOp, LeadReply, LeadSnapshot } from './ops.js';
import { submitOp } from './submit.js';
import { LeadDecisions } from './decisions.js';
import { LeadHooks } from './hooks.js';
import type { LeadEvent } from './events.js';
import { leadTeamIO } from './io.js';
import { routeForLead, type PlanReviewer } from './routing.js';
import { LeadTeammates } from './teammates.js';
import { TeammateWorktrees } from './teammate-worktrees.js';
import { reportProblem } from './report-problem.js';
import { RulesSync } from './rules-sync.js';
import { Supervisor } from '../process/index.js';
import { recoverFromEarlierLead, recoveryNotice } from './recovery.js';
import { LeadSession, type LeadSessionStart, type SessionChoice } from './session.js';

export type LeadOptions = {
  /** Where everything the team shares is kept: opened by the caller, who closes it after the lead has stopped. */
  store: TeamStore;
  /** This machine's own state of the team: the control socket and token, the workspace, what agents must not see. */
  paths: TeamPaths;
  settings: ModelSettings;
  cwd: string;
  permissionMode: PermissionMode;
  planReviewer: PlanReviewer;
  /** How long a teammate that agreed to stop has before its process group is ended. */
  graceMs?: number;
  /** Tokens the whole team may use (kept in the team config, where every agent checks it). */
  tokenBudget?: number;
  /** `off`: --no-sandbox, approvals advisory. Default: bubblewrap with the network on. */
  sandbox?: { kind: 'bwrap'; network: SandboxNetwork } | { kind: 'off' };
  /** The session to journal into: a new one unless an earlier one is resumed. */
  session?: SessionChoice;
};

/**
 * The lead process: its model loop, the teammates it supervises, the human's approval queue
 * and the control socket other terminals use. The Ink UI and `teams run` both drive it and
 * both render its events.
 */
export class LeadRuntime {
  private closers: (() => Promise<void>)[] = [];
  /** Set by the first stop: a second caller (a force-stop, a test's after hook) waits for the same one. */
  private stopping: Promise<void> | undefined;

  private constructor(
    readonly events: EventStream<LeadEvent>,
    readonly options: LeadOptions,
    readonly store: TeamStore,
    readonly bus: TeamBus,
    readonly loop: AgentLoop,
    readonly model: OpenModel,
    readonly teammates: LeadTeammates,
    readonly decisions: LeadDecisions,
    private readonly supervisor: Supervisor,
    private readonly keys: KeyRing,
    readonly sandbox: SandboxStatus,
    /** The lead's own roster writes, in the order its turns make them. */
    private readonly rosterWrites: Serial,
    readonly session: LeadSessionStart,
    /** The project's hooks (settings.json): run here, on what teammates do, never inside a sandbox. */
    readonly hooks: LeadHooks,
  ) {}

  static async start(options: LeadOptions): Promise<LeadRuntime> {
    const { paths, store } = options;
    const existing = (await store.roster.load())?.members.find((m) => m.name === LEAD);
    if (existing?.pid && existing.pid !== process.pid && isRunning(existing.pid, existing.pid_start)) {
      throw new Error(`a lead is already running for team '${store.team}' (pid ${existing.pid})`);
    }
    await store.roster.ensure();
    const signer = createSigner();
    const keys = new KeyRing();
    keys.set(LEAD, signer.publicKey);
    const sandbox = sandboxStatus(options.sandbox, loadProjectSandbox(paths.home));
    await store.roster.update((draft) => {
      draft.sandbox = describeStatus(sandbox);
      if (options.tokenBudget !== undefined) draft.token_budget = options.tokenBudget;
    });
    await store.audit.append({ event: 'member', name: LEAD, change: `started; commands ${describeStatus(sandbox)}` });
    const bus = new TeamBus(store, signer);
    const recovered = await recoverFromEarlierLead(store, bus);
    const model = await openModel(options.settings);
    await setMemberStatus(store.roster, LEAD, 'idle', { pid: process.pid, model: options.settings.model });

    const events = new EventStream<LeadEvent>();
    const session = new LeadSession(store.sessions, options.session ?? { id: newSessionId(), resume: false });
    const { resume } = session.choice;
    const opened = await openConversation({ sessions: store.sessions, id: session.id, agent: LEAD, resume, sink: session.sink, journalExists: resume });
    const supervisor = new Supervisor(paths, {
      env: childModelEnv(options.settings, model.offlineURL),
      cwd: options.cwd,
      graceMs: options.graceMs ?? 5_000,
      keys,
      leadKey: signer.publicKey,
    });
    const rules = new RulesSync(
      paths.home,
      () => loadProjectRules(paths.home),
      (to, text) => bus.send({ type: 'rules_set', from: LEAD, to, ...text }),
      (what, reason) => reportProblem(store, events, what, reason),
    );
    const worktrees = new TeammateWorktrees(store, paths, options.cwd, events);
    const teammates = new LeadTeammates(store, bus, supervisor, options.permissionMode, sandbox, events, (requested) => teammateModel(options.settings, requested), session, rules, worktrees);
    const decisions = new LeadDecisions(bus, store.requests, options.permissionMode, options.planReviewer, teammates, events);
    const rosterWrites = createSerial((error) => events.emit({ type: 'problem', text: `the lead's status was not recorded: ${errorMessage(error)}` }));
    // Hooks are sandboxed whatever the lead's mode: only --no-sandbox runs them bare.
    const hookLaunch = leadLauncher(sandbox, 'default', paths);
    const hooks = new LeadHooks({ home: paths.home, team: store.team, cwd: options.cwd, launch: hookLaunch, store, events, send: (draft) => bus.send(draft), sent: bus.sent });
    const team = leadTeamIO(bus, store, {
      spawn: (spec) => teammates.spawn(spec),
      respawn: (name) => teammates.respawn(name),
      requestShutdown: (name, reason) => teammates.requestShutdown(name, reason),
      decide: (requestId, decision) => decisions.decide(requestId, decision),
      checkCompletion: (task) => hooks.run('task_completed', { teammate: LEAD, task }, LEAD),
    });
    const loop = await createLeadLoop({
      store,
      paths,
      cwd: options.cwd,
      permissionMode: options.permissionMode,
      planReviewer: options.planReviewer,
      sandbox,
      model,
      contextWindow: contextWindowOf(options.settings.model, options.settings.contextWindow),
      team,
      decisions,
      conversation: opened.conversation,
      running: () => supervisor.running(),
      rosterWrites,
    });
    // Its model hears it with the next thing it is asked: teammates it may remember as working are gone.
    if (recovered.length > 0) loop.enqueue(recoveryNotice(recovered));
    const started = { id: session.id, resumed: resume, earlier: opened.earlier, problems: opened.problems, recovered };
    const runtime = new LeadRuntime(events, options, store, bus, loop, model, teammates, decisions, supervisor, keys, sandbox, rosterWrites, started, hooks);
    teammates.board.created.subscribe((task) => hooks.taskCreated(task));
    // Audited now; the REPL and `teams run` subscribe only once this returns, and show `session.problems`.
    for (const problem of opened.problems) reportProblem(store, events, `set aside ${problem.ref}`, problem.reason);
    loop.subscribe((event) => {
      runtime.events.emit({ type: 'agent', event });
      if (event.type === 'turn_start') void rosterWrites(() => setMemberStatus(store.roster, LEAD, 'working'));
      if (event.type === 'turn_end') void rosterWrites(() => addMemberUsage(store.roster, LEAD, pricedTurn(event.model, event.usage)));
      if (event.type === 'idle') void rosterWrites(() => setMemberStatus(store.roster, LEAD, 'idle'));
      if (event.type === 'compacted') {
        void rosterWrites(() => addMemberUsage(store.roster, LEAD, pricedTurn(event.model, event.usage)));
        const { before, after, reason } = event;
        store.audit.append({ event: 'compacted', agent: LEAD, before, after, reason }).catch((error: unknown) => runtime.refused('the compaction was not audited', String(error)));
      }
    });
    await runtime.wire();
    return runtime;
  }

  /** Shown and audited: something was refused that only a forger or a confused client sends, or an entry set aside. */
  private refused(what: string, reason: string): void {
    reportProblem(this.store, this.events, what, reason);
  }

  private async wire(): Promise<void> {
    const { paths } = this.options;
    const subscription = await this.store.mailboxes.subscribe(LEAD, (event) => {
      if (event.type === 'set_aside') {
        this.refused(`set aside ${event.problem.ref}`, event.problem.reason);
        return;
      }
      for (const envelope of event.messages) this.receive(envelope);
      // A message is believed only from its signature: a forged one is set aside and audited,
      // never recorded as handled.
    }, { admit: (envelope) => verifySender(envelope, this.keys, LEAD) });
    this.closers.push(() => subscription.close());
    this.closers.push(async () => this.hooks.close());
    const token = issueControlToken(paths.controlToken);
    const control = await startControlServer(
      paths.controlSocket,
      token,
      (op) => answerOverSocket((o) => this.submit(o), op, (what, error) => this.refused(what, String(error))),
      (why) => this.refused('control command', why),
    );
    this.closers.push(async () => {
      rmSync(paths.controlToken, { force: true });
      await control.close();
    });
    // A roster that cannot be read (another process's, not the team's format) is shown, and the
    // last good one stands until the next change.
    const roster = await this.store.roster.watch(
      (config) => this.events.emit({ type: 'team', members: config.members }),
      (error) => this.events.emit({ type: 'problem', text: error.message }),
    );
    this.closers.push(() => roster.close());
    const requests = await this.decisions.watch();
    this.closers.push(() => requests.close());
    // The project's rules, changed by the REPL or by `teams allow` in another shell: sent to running teammates.
    const rules = await this.teammates.watchRules();
    this.closers.push(() => rules.close());
    const board = await this.teammates.board.watch();
    this.closers.push(() => board.close());
  }

  private receive(envelope: Envelope): void {
    // While stopping, the hooks are closed: none runs, so none sends a teammate back to work, and
    // a completion reported meanwhile is recorded unchecked rather than lost.
    this.hooks.receive(envelope, { route: (e, late) => this.route(e, late), working: (name) => this.teammates.heard(name, false) });
  }

  private route(envelope: Envelope, late = false): void {
    // Recorded before it is announced: the event's subscribers (the run's "are we done?"
    // check) read whether the sender is idle, and an idle notification with no summary
    // causes no other event that would make them look again.
    if (!late) this.teammates.heard(envelope.from, envelope.type === 'idle_notification', envelope.timestamp);
    this.events.emit({ type: 'message', envelope });
    const route = routeForLead(envelope, this.options.planReviewer);
    if (route.expectExit) this.teammates.expectExit(route.expectExit);
    if (route.forHuman) this.decisions.arrived();
    // While stopping, the human is leaving: a shutdown reply must not start a turn (and spend tokens).
    if (route.notice && this.stopping === undefined) this.loop.push(route.notice);
  }

  /** The human's command, from the REPL, another terminal or `teams run`: carried out in one place (submit.ts). */
  submit(op: LeadOp): Promise<LeadReply> {
    const { store, bus, decisions, teammates, loop } = this;
    return submitOp(op, { store, paths: this.options.paths, bus, decisions, teammates, loop, stop: (reason) => this.stop(reason), forceStop: () => this.forceStop() });
  }

  /** What the REPL reads of the lead now. */
  async snapshot(): Promise<LeadSnapshot> {
    return { busy: this.loop.busy, pending: await this.decisions.pendingForHuman() };
  }

  /**
   * Nothing is running or waiting: the lead is idle with no unread mail (a teammate's last
   * task notification, say), no teammate works, and nothing awaits the human. Ask once the
   * code that emitted an event has returned: the loop emits 'idle' while it is still busy.
   */
  async quiet(): Promise<boolean> {
    if (this.loop.busy || this.teammates.anyBusy() || this.hooks.busy() || (await this.decisions.pendingForHuman()).length > 0) return false;
    if ((await this.store.mailboxes.peek(LEAD)).messages.length > 0 || this.loop.busy) return false;
    const unread = async (name: string) => (await this.store.mailboxes.peek(name)).messages.length;
    return !(await this.teammates.busyAmongThemselves(await this.store.requests.list({ state: 'pending' }), unread));
  }

  /** Ask every teammate to shut down, end those that do not within the grace period, close everything. */
  stop(reason = 'the lead is leaving'): Promise<void> {
    this.stopping ??= this.stopOnce(reason);
    return this.stopping;
  }

  /**
   * The human will not wait (a second Ctrl+C): end every teammate's process group now, then
   * finish the stop under way (or start one), which no longer waits on anyone.
   */
  async forceStop(): Promise<void> {
    this.loop.interrupt();
    await this.supervisor.killAll();
    await this.stop('the lead was force-stopped');
  }

  /**
   * A notice queued just before the stop began may still start a turn after the interrupt:
   * end every turn before the model goes, or such a turn
   * would outlive the stop, retrying a closed model and writing the lead's status afterwards.
   */
  private async endTurns(): Promise<void> {
    const unsubscribe = this.loop.subscribe((event) => {
      if (event.type === 'turn_start') this.loop.interrupt();
    });
    try {
      this.loop.interrupt();
      await this.loop.idle();
    } finally {
      unsubscribe();
    }
  }

  private async stopOnce(reason: string): Promise<void> {
    this.loop.interrupt();
    this.hooks.close();
    await this.teammates.stopAll(reason, this.options.graceMs ?? 5_000);
    await this.decisions.close();
    for (const close of this.closers.reverse()) await close();
    this.closers = [];
    await this.endTurns();
    await this.model.close();
    // After every status its turns wrote: the last word is that it stopped.
    await this.rosterWrites(() => setMemberStatus(this.store.roster, LEAD, 'shutdown', { pid: null }));
  }
}
