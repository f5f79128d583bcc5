import { loadProjectRules, loadProjectSandbox } from './project-settings.js';
import { rmSync } from 'node:fs';
import { AgentLoop, findAgentDefinition, openConversation, sessionSpending } from '../agent/index.js';
import { EventStream, createSerial, type Serial, errorMessage } from '../lib/index.js';
import { openModel, type OpenModel, childModelEnv, teammateModel, contextWindowOf } from '../model/index.js';
import { createLeadLoop, leadLauncher, reportLeadMcp, sandboxStatus } from './agent.js';
import { type Envelope, LEAD, createSigner, KeyRing, verifySender, newSessionId } from '../protocol/index.js';
import { describeStatus, type SandboxStatus } from '../sandbox/index.js';
import { TeamBus, pricedTurn, refuseWorkdirInStateRoot } from '../team/index.js';
import { STORE_ENV, addMemberUsage, memberIsAlive, setMemberStatus, type TeamStore } from '../store/index.js';
import { issueControlToken, startControlServer } from './control.js';
import { answerOverSocket } from './control-answer.js';
import type { LeadOp, LeadReply, LeadSnapshot } from './ops.js';
import { submitOp } from './submit.js';
import { LeadDecisions } from './decisions.js';
import { LeadHooks } from './hooks.js';
import type { LeadEvent } from './events.js';
import { leadTeamIO } from './io.js';
import { LeadTeammates } from './teammates.js';
import { TeammateWorktrees } from './teammate-worktrees.js';
import { leadEffectRunner } from './execute.js';
import { LeadStepper } from './stepper.js';
import { initialLeadState, type LeadInput } from './state.js';
import { RulesSync } from './rules-sync.js';
import { Spawners, Supervisor } from '../process/index.js';
import { RemoteHosts } from '../host/index.js';
import { recoverFromEarlierLead, recoveryNotice } from './recovery.js';
import { LeadSession, type LeadSessionStart } from './session.js';
import { LeadControls, LeadModel } from './lead-controls.js';
import { endTurns } from './end-turns.js';
import type { LeadOptions, LeadParts } from './options.js';
import { ProjectMcpServers } from './mcp-settings.js';
import { loadModeLayers, startMode } from './start-mode.js';

/**
 * The lead process: its model loop, the teammates it supervises, the human's approval queue
 * and the control socket other terminals use. The Ink UI and `teams run` both drive it and
 * both render its events.
 */
export class LeadRuntime {
  private closers: (() => Promise<void>)[] = [];
  /** Set by the first stop: a second caller (a force-stop, a test's after hook) waits for the same one. */
  private stopping: Promise<void> | undefined;
  readonly events: EventStream<LeadEvent>;
  readonly options: LeadOptions;
  readonly store: TeamStore;
  readonly bus: TeamBus;
  readonly loop: AgentLoop;
  readonly model: OpenModel;
  readonly teammates: LeadTeammates;
  readonly decisions: LeadDecisions;
  readonly sandbox: SandboxStatus;
  readonly session: LeadSessionStart;
  /** The project's hooks (settings.json): run here, on what teammates do, never inside a sandbox. */
  readonly hooks: LeadHooks;
  /** What starts its teammates: this machine's supervisor, and the team's hosts (`teams host`, attached as they register). */
  readonly spawners: Spawners;
  /** The human's changes to the lead itself: its mode, its model, a fresh conversation. */
  readonly controls: LeadControls;
  private readonly hosts: RemoteHosts;
  private readonly keys: KeyRing;
  /** The lead's own roster writes, in the order its turns make them. */
  private readonly rosterWrites: Serial;
  /** What the lead knows of its team, stepped in this one place (step.ts). */
  private readonly stepper: LeadStepper;
  readonly mcp: LeadParts['mcp']; // its own MCP servers (agent.ts): `/mcp` shows them

  private constructor(parts: LeadParts) {
    ({ events: this.events, options: this.options, store: this.store, bus: this.bus, loop: this.loop, model: this.model, teammates: this.teammates } = parts);
    ({ decisions: this.decisions, spawners: this.spawners, hosts: this.hosts, keys: this.keys, sandbox: this.sandbox, rosterWrites: this.rosterWrites, session: this.session, hooks: this.hooks, stepper: this.stepper, controls: this.controls, mcp: this.mcp } = parts);
  }

  static async start(options: LeadOptions): Promise<LeadRuntime> {
    const { paths, store } = options;
    const existing = (await store.roster.load())?.members.find((m) => m.name === LEAD);
    if (existing && existing.pid !== process.pid && memberIsAlive(existing)) {
      throw new Error(`a lead is already running for team '${store.team}' (pid ${existing.pid})`);
    }
    // Before anything starts (clock, model, roster), so that agents working in the state root, a bad
    // defaultMode or a bypass the settings disable refuse the start with nothing left running.
    refuseWorkdirInStateRoot(options.cwd, paths);
    const start = startMode(options.permissionMode, loadModeLayers(paths.home));
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
    await bus.clock.start();
    const recovered = await recoverFromEarlierLead(store, bus);
    const model = await openModel(options.settings);
    await setMemberStatus(store.roster, LEAD, 'idle', { pid: process.pid, model: options.settings.model });

    const events = new EventStream<LeadEvent>();
    const session = new LeadSession(store.sessions, options.session ?? { id: newSessionId(), resume: false });
    const { resume } = session.choice;
    const opened = await openConversation({ sessions: store.sessions, id: session.id, agent: LEAD, resume, sink: session.sink, journalExists: resume });
    const supervisor = new Supervisor(paths, {
      // The store by environment, never argv (a Redis URL may hold a password); always set, so the lead's own TEAMS_STORE never stands in.
      env: { ...childModelEnv(options.settings, model.offlineURL), [STORE_ENV]: options.storeDescriptor ?? '' },
      cwd: options.cwd,
      graceMs: options.graceMs ?? 5_000,
      keys,
      leadKey: signer.publicKey,
    });
    // This machine's supervisor; a host that runs teammates elsewhere is attached beside it.
    const spawners = new Spawners(supervisor);
    // Every module below steps the lead with what it learns; the effects run once the loop exists.
    const stepper = new LeadStepper(initialLeadState(options.planReviewer, start.mode));
    const step = (input: LeadInput) => stepper.step(input);
    const rules = new RulesSync(
      paths.home,
      () => loadProjectRules(paths.home),
      (to, text) => bus.send({ type: 'rules_set', from: LEAD, to, ...text }),
      (what, reason) => void step({ type: 'problem', what, reason, audited: true }),
    );
    const worktrees = new TeammateWorktrees(store, paths, options.cwd, step);
    // `.mcp.json` is read here, once: a teammate that rewrites it later changes nothing of this session (mcp-settings.ts).
    const mcpServers = new ProjectMcpServers(paths.home, options.cwd, sandbox.kind === 'bwrap');
    const teammates = new LeadTeammates(store, bus, spawners, () => stepper.state.mode, sandbox, step, (requested) => teammateModel(options.settings, requested), session, rules, worktrees, (name) => findAgentDefinition(paths.home, name), mcpServers);
    const decisions = new LeadDecisions(bus, store.requests, options.planReviewer, teammates, stepper);
    // Hosts the team enrolled are attached as they register; a key relayed reaches the local teammates too.
    const problem = (what: string, reason: string) => void step({ type: 'problem', what, reason, audited: true });
    const hostDeps = { store, clock: bus.clock, paths, keys, leadKey: signer.publicKey, graceMs: options.graceMs ?? 5_000, problem };
    const hosts = new RemoteHosts({ ...hostDeps, keysChanged: () => void supervisor.shareKeys(), attach: (host, spawner) => spawners.attach(host, spawner) });
    const rosterWrites = createSerial((error) => void step({ type: 'problem', what: "the lead's status was not recorded", reason: errorMessage(error), audited: false }));
    // Hooks are sandboxed whatever the lead's mode: only --no-sandbox runs them bare.
    const hooks = new LeadHooks({ home: paths.home, team: store.team, cwd: options.cwd, launch: leadLauncher(sandbox, 'default', paths), store, step });
    const team = leadTeamIO(bus, store, {
      spawn: (spec) => teammates.spawn(spec),
      respawn: (name) => teammates.respawn(name),
      requestShutdown: (name, reason) => teammates.requestShutdown(name, reason),
      decide: (requestId, decision) => decisions.decide(requestId, decision),
      checkCompletion: (task) => hooks.run('task_completed', { teammate: LEAD, task }, LEAD),
    });
    const leadModel = new LeadModel(model.client);
    const { loop, mcp } = await createLeadLoop({
      store,
      paths,
      cwd: options.cwd,
      mode: () => stepper.state.mode,
      planReviewer: options.planReviewer,
      sandbox,
      model: leadModel,
      contextWindow: contextWindowOf(options.settings.model, options.settings.contextWindow),
      team,
      decisions,
      conversation: opened.conversation,
      running: () => spawners.running(),
      rosterWrites,
      mcpServers,
    });
    stepper.runEffectsWith(leadEffectRunner({ events, store, bus, loop, teammates, decisions, hooks }));
    // Every message the lead's process sends: what starts a turn ends a teammate's idleness (step.ts).
    bus.sent.subscribe((envelope) => void step({ type: 'sent', envelope }));
    // Its model hears it with the next thing it is asked: teammates it may remember as working are gone.
    if (recovered.length > 0) loop.enqueue(recoveryNotice(recovered));
    const spent = resume ? await sessionSpending(store.sessions, session.id, (await store.roster.ensure()).members.map((m) => m.name)) : {};
    const started = { id: session.id, resumed: resume, earlier: opened.earlier, problems: opened.problems, recovered, spent, notices: start.notes };
    const controls = new LeadControls({ stepper, loop, model: leadModel, settings: options.settings, offlineURL: model.offlineURL, session });
    const runtime = new LeadRuntime({ events, options, store, bus, loop, model, teammates, decisions, spawners, hosts, keys, sandbox, rosterWrites, session: started, hooks, stepper, controls, mcp });
    // Audited now; the REPL and `teams run` subscribe only once this returns, and show `session.problems`.
    for (const problem of opened.problems) runtime.refused(`set aside ${problem.ref}`, problem.reason);
    loop.subscribe((event) => {
      void step({ type: 'agent', event });
      if (event.type === 'turn_start') void rosterWrites(() => setMemberStatus(store.roster, LEAD, 'working'));
      if (event.type === 'turn_end' || event.type === 'compaction_skipped') void rosterWrites(() => addMemberUsage(store.roster, LEAD, pricedTurn(event.model, event.usage)));
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
    void this.stepper.step({ type: 'problem', what, reason, audited: true });
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
    // Before anything asks to spawn: a respawn after a restart finds its host attached.
    await this.hosts.start();
    this.closers.push(() => this.hosts.close(), async () => this.hooks.close());
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
      (config) => void this.stepper.step({ type: 'roster', members: config.members }),
      (error) => void this.stepper.step({ type: 'problem', what: undefined, reason: error.message, audited: false }),
    );
    this.closers.push(() => roster.close());
    const requests = await this.decisions.watch();
    this.closers.push(() => requests.close());
    // The project's rules, changed by the REPL or by `teams allow` in another shell: sent to running teammates.
    const rules = await this.teammates.watchRules();
    this.closers.push(() => rules.close());
    const board = await this.teammates.board.watch();
    this.closers.push(() => board.close(), () => this.mcp.close());
    reportLeadMcp(this.mcp, (what, reason) => void this.stepper.step({ type: 'problem', what, reason, audited: true }));
  }

  /**
   * A verified message from a teammate: the lead's step decides whether it waits for hooks
   * (teammate_idle, task_completed) or is routed now. While stopping, the hooks are closed: none
   * runs, so none sends a teammate back to work, and a completion reported meanwhile is
   * recorded unchecked rather than lost.
   */
  private receive(envelope: Envelope): void {
    const idleHooks = envelope.type === 'idle_notification' && this.hooks.hooksFor('teammate_idle').length > 0;
    void this.stepper.step({ type: 'received', envelope, idleHooks });
  }

  /** The human's command, from the REPL, another terminal or `teams run`: carried out in one place (submit.ts). */
  submit(op: LeadOp): Promise<LeadReply> {
    const { store, bus, decisions, teammates, loop } = this;
    return submitOp(op, { store, paths: this.options.paths, bus, decisions, teammates, loop, lead: this.controls, stop: (reason) => this.stop(reason), forceStop: () => this.forceStop() });
  }

  /** What the REPL reads of the lead now. */
  async snapshot(): Promise<LeadSnapshot> {
    return { busy: this.loop.busy, mode: this.stepper.state.mode, pending: await this.decisions.pendingForHuman() };
  }

  /**
   * Nothing is running or waiting: the lead is idle with no unread mail (a teammate's last
   * task notification, say), no teammate works, and nothing awaits the human. Ask once the
   * code that emitted an event has returned: the loop emits 'idle' while it is still busy.
   */
  async quiet(): Promise<boolean> {
    const { idle, checking } = this.stepper.state;
    // A teammate not yet idle works; a completion still checked may send its teammate back to work.
    const anyBusy = this.teammates.running().some((name) => !idle.has(name));
    if (this.loop.busy || anyBusy || checking.size > 0 || (await this.decisions.pendingForHuman()).length > 0) return false;
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
    await this.spawners.killAll();
    await this.stop('the lead was force-stopped');
  }

  private async stopOnce(reason: string): Promise<void> {
    this.loop.interrupt();
    this.hooks.close();
    void this.stepper.step({ type: 'stop' });
    await this.teammates.stopAll(reason, this.options.graceMs ?? 5_000);
    await this.decisions.close();
    this.bus.clock.stop();
    for (const close of this.closers.reverse()) await close();
    this.closers = [];
    await endTurns(this.loop);
    await this.model.close();
    // After every status its turns wrote: the last word is that it stopped.
    await this.rosterWrites(() => setMemberStatus(this.store.roster, LEAD, 'shutdown', { pid: null }));
  }
}
