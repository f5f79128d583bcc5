import { Refused, errorMessage } from '../lib/index.js';
import { newRequestId, summarize, type PermissionMode, agentNameProblem, LEAD, modeAfterPlan, type RequestRecord } from '../protocol/index.js';
import { type TeamBus, budgetProblem } from '../team/index.js';
import { addMember, setMemberStatus, type TeamStore } from '../store/index.js';
import { describeExit, type AgentRole, type ChildExit, type Spawner } from '../process/index.js';
import { sandboxFor, type SandboxStatus } from '../sandbox/index.js';
import type { LeadInput } from './state.js';
import { modelIdProblem } from '../model/index.js';
import type { Spawned, SpawnSpec } from '../tools/index.js';
import type { LeadSession } from './session.js';
import { respawnPlan } from './respawn.js';
import { modeGrantProblem, type ModeAsker } from '../policy/index.js';
import type { RulesSync } from './rules-sync.js';
import type { ProjectMcpServers } from './mcp-settings.js';
import type { TeammateWorktrees } from './teammate-worktrees.js';
import { LeadBoard } from './board.js';
import { busyAmongThemselves } from './team-quiet.js';
import { requireRunningTeammate } from './running-teammate.js';
import { worktreeBrief } from '../worktree/index.js';
import { respawnRole, settleSpawn, type FindAgent } from './agent-spawn.js';

/** The lead's side of its teammates' lives: spawning, asking them to stop, noticing exits. */
export class LeadTeammates {
  /** Exits still being handled: a stop waits for them (an exited teammate's worktree is settled then). */
  private readonly exiting = new Set<Promise<void>>();
  /** The task board's side of the lead: a spawn's task, the tasks an exited teammate held, offers of work. */
  readonly board: LeadBoard;

  constructor(
    private readonly store: TeamStore,
    private readonly bus: TeamBus,
    /** Whatever starts its teammates, here or on other hosts: the lead knows only the seam. */
    private readonly spawner: Spawner,
    /** The lead's mode now (Shift+Tab changes it): what a spawn that names none gets, and the most its model may grant. */
    private readonly leadMode: () => PermissionMode,
    private readonly sandbox: SandboxStatus,
    /** The lead takes in what happens to its teammates (step.ts). */
    private readonly step: (input: LeadInput) => Promise<void>,
    /** The model a teammate runs, given the one it was spawned with (settings.ts teammateModel). */
    private readonly modelFor: (requested: string | undefined) => string,
    /** The lead's session: every teammate journals its conversation in it. */
    private readonly session: LeadSession,
    /** The project's permission rules (settings.json): read at each spawn, handed over, and kept up to date in every running teammate. */
    private readonly rules: RulesSync,
    /** Teammates' own git worktrees (isolation: worktree): made before a start, settled after an exit. */
    private readonly worktrees: TeammateWorktrees,
    /** The project's agent definitions (.teams/agents/), read at each spawn that names one. */
    private readonly findAgent: FindAgent,
    /** The project's MCP servers: the settings read at each spawn, `.mcp.json` as read at the lead's start. */
    private readonly mcp: ProjectMcpServers,
  ) {
    this.board = new LeadBoard(store, bus, step, () => spawner.running());
    spawner.exits.subscribe((exit) => {
      const handled: Promise<void> = this.exited(exit)
        .catch((error: unknown) => this.problem(`after ${exit.name} exited`, error))
        .finally(() => this.exiting.delete(handled));
      this.exiting.add(handled);
    });
    spawner.compactions.subscribe((compaction) => void step({ type: 'child_compacted', ...compaction }));
  }

  /** Shown and audited: something failed on the lead's side that no caller waits for. */
  private problem(what: string, error: unknown): void {
    void this.step({ type: 'problem', what, reason: errorMessage(error), audited: true });
  }

  async spawn(asked: SpawnSpec): Promise<Spawned> {
    // The lead's mode as the spawn is asked for, read once: Shift+Tab may change it while this runs.
    const leadMode = this.leadMode();
    // An agent definition fills in what was not asked explicitly; an unknown one is refused, naming those there are.
    const spec = settleSpawn(asked, leadMode, this.findAgent);
    const problem = agentNameProblem(spec.name) ?? (spec.model === undefined ? undefined : modelIdProblem(spec.model));
    if (problem) throw new Refused(problem);
    const model = this.modelFor(spec.model);
    if (spec.name === LEAD) throw new Refused(`'${LEAD}' is the lead's own name`);
    if (this.spawner.isRunning(spec.name)) throw new Refused(`${spec.name} is already running`);
    // A worktree is made in the lead's repository, which a teammate on another machine cannot reach.
    if (spec.isolation === 'worktree' && spec.host !== undefined) throw new Refused(`cannot start ${spec.name} on host '${spec.host}' in a worktree: worktrees are made on the lead's machine only`);
    const placement = this.spawner.placementProblem(spec.host);
    if (placement) throw new Refused(`cannot start ${spec.name}: ${placement}`);
    // Unnamed, a teammate works in the lead's mode (plan becoming default); named, within the rule.
    const mode = spec.permissionMode ?? modeAfterPlan(leadMode);
    const modeProblem = modeGrantProblem(mode, leadMode, spec.asker ?? 'model');
    if (modeProblem) throw new Refused(modeProblem);
    // Asking for plan mode is asking for plan mode: it starts read-only until a plan is approved.
    const planMode = spec.planMode || mode === 'plan';
    // The spawn's task is a board task, the teammate's from the start: what it does is reported under that id.
    const subject = summarize(spec.prompt || spec.role);
    const description = spec.prompt || `You are the team's ${spec.role}. Wait for instructions from the lead.`;
    const task = await this.board.spawnTask(spec.name, subject, description);
    const started = this.start({ name: spec.name, role: spec.role, planMode, model, permissionMode: modeAfterPlan(mode), worktree: spec.isolation === 'worktree', host: spec.host, agent: spec.agent }, { task_id: task.id, subject, description }, false);
    return started.catch(async (error: unknown) => {
      await this.board.spawnFailed(task.id, spec.name, error);
      throw error;
    });
  }

  /**
   * Start a teammate that crashed or was shut down again, in a new process with its journaled
   * conversation. Its requests still pending are cancelled first (the process that asked is
   * gone), and its first input names every request cancelled since its last record.
   */
  async respawn(name: string): Promise<{ pid: number; cancelled: string[]; planMode: boolean }> {
    if (this.spawner.isRunning(name)) throw new Refused(`${name} is running: only a teammate that crashed or was shut down can be respawned`);
    const { member, cancelled, planMode, permissionMode, session } = await respawnPlan(name, { store: this.store, bus: this.bus, session: this.session.id, leadMode: this.leadMode(), placementProblem: (host) => this.spawner.placementProblem(host) });
    // Its role read again before anything goes on the board: a definition gone or broken refuses the respawn.
    const agent = respawnRole(name, member.agent, this.findAgent);
    // It keeps the model it ran before (the lead's, when the roster never named one).
    // Its own task back, under the same id, when it is still open; else a new one (board.ts).
    const { task, description } = await this.board.respawnTask(name, cancelled, member.task);
    const brief = { task_id: task.id, subject: task.subject, description };
    const model = this.modelFor(member.model ?? undefined);
    // Back where it ran: its conversation is journaled in the store, but its working directory is on that host.
    const { pid } = await this.start({ name, role: member.role, planMode, model, permissionMode, worktree: false, host: member.host, agent, session }, brief, true).catch(async (error: unknown) => {
      // Its own task given back stays its own, for the next respawn; a new one is cancelled, as a spawn's.
      if (task.id === member.task) await this.board.keepFor(name, task.id, `${name} did not start again: ${errorMessage(error)}`);
      else await this.board.spawnFailed(task.id, name, error);
      throw error;
    });
    return { pid, cancelled, planMode };
  }

  /** A teammate's process started with `task` waiting in its mailbox; `resume`: with its journaled conversation. */
  private async start(
    spec: { name: string; role: string; planMode: boolean; model: string; permissionMode: PermissionMode; worktree: boolean; host: string | undefined; agent: AgentRole | undefined; session?: string },
    task: { task_id: string; subject: string; description: string },
    resume: boolean,
  ): Promise<Spawned> {
    const team = await this.store.roster.load();
    const spent = budgetProblem(team);
    if (spent) throw new Refused(spent);
    const { permissionMode } = spec;
    const sandbox = sandboxFor(this.sandbox, spec.planMode ? 'plan' : permissionMode);
    if (!sandbox.ok) throw new Refused(`cannot start ${spec.name}: ${sandbox.error}`);
    // A malformed settings file refuses the spawn (Refused, naming file and field) rather than dropping its deny rules.
    const rules = this.rules.current();
    // Its MCP servers are the ones the lead reads now, handed over: the teammate never reads settings.
    // Those the lead could not configure were reported when it started; the teammate goes without them.
    const mcpServers = this.mcp.load().servers;
    const member = team?.members.find((m) => m.name === spec.name);
    // Outside a git repository a worktree is refused here, before anything is written or started.
    const worktree = await this.worktrees.prepare(spec.name, member, spec.worktree, resume);
    // A spawn records its plan mode for any later respawn; a respawn keeps what its spawn recorded.
    const planModeSince = resume ? undefined : spec.planMode ? this.bus.clock.stamp() : null;
    // The model is on the roster from the start; the teammate writes the one it runs again as it works.
    const startMode = spec.planMode ? 'plan' : permissionMode;
    const { host, agent } = spec;
    // A spawn journals in the lead's session now; a respawn goes on in the one its journal is in.
    const session = spec.session ?? this.session.id;
    // Its own task on the roster: kept for it if it exits unfinished, given back at a respawn (board.ts).
    if (!member) await addMember(this.store.roster, { name: spec.name, role: spec.role, status: 'starting', model: spec.model, plan_mode_since: planModeSince ?? undefined, permission_mode: startMode, host, agent: agent?.name, task: task.task_id, session });
    else await setMemberStatus(this.store.roster, spec.name, 'starting', { model: spec.model, plan_mode_since: planModeSince, permission_mode: startMode, host: host ?? null, agent: agent?.name ?? null, task: task.task_id, session });
    await this.worktrees.record(spec.name, member, worktree);
    // The task goes into the mailbox first: it is waiting there, durably, when the teammate starts.
    const brief = worktree === undefined ? task : { ...task, description: `${task.description}\n\n${worktreeBrief(worktree)}` };
    await this.bus.send({ type: 'task_assignment', from: LEAD, to: spec.name, ...brief });
    // A spawn's journal goes into the lead's session, which exists from the first teammate on.
    if (session === this.session.id) await this.session.ensure();
    // The roster names the process from the start (so that, say, `teams member remove` sees it
    // running), written here while the teammate loads rather than by the teammate before "ready".
    const journal = { session, resume };
    const placed = { name: spec.name, planMode: spec.planMode, permissionMode, sandbox: sandbox.settings, rules, mcpServers, model: spec.model, journal, cwd: worktree?.path, host: spec.host, ...(agent ? { agent } : {}) };
    const { pid } = await this.spawner.spawn(placed, (process) => {
      // Only the pid (with its start time, as its spawner read it where it runs), and only while the teammate
      // has written no status of its own: its first status change may land first, and must not be turned back to "starting".
      this.store.roster
        .update((draft) => {
          const started = draft.members.find((m) => m.name === spec.name);
          if (started?.status !== 'starting') return;
          started.pid = process.pid;
          if (process.pid_start === undefined) delete started.pid_start;
          else started.pid_start = process.pid_start;
        })
        .catch((error: unknown) => this.problem(`recording ${spec.name}'s pid`, error));
    });
    // From now on a change to the rules reaches it as a rules_set, one made since they were read included.
    await this.rules.handedOver(spec.name, rules);
    return { pid, model: spec.model, role: spec.role, mode: startMode };
  }

  async requestShutdown(name: string, reason: string | undefined): Promise<{ requestId: string }> {
    if (!this.spawner.isRunning(name)) throw new Refused(`${name} is not running`);
    const requestId = newRequestId('shutdown');
    await this.bus.send({ type: 'shutdown_request', from: LEAD, to: name, request_id: requestId, reason });
    return { requestId };
  }

  /**
   * Change a running teammate's permission mode: a signed mode_set it obeys (its harness, not
   * its model). Bounded by the lead's own mode unless the human asked (mode-grant.ts).
   */
  async setMode(name: string, mode: PermissionMode, asker: ModeAsker): Promise<void> {
    if (name === LEAD) throw new Refused(`the lead's own mode is set when it starts (--permission-mode), not by mode_set`);
    if (!this.spawner.isRunning(name)) throw new Refused(`${name} is not running`);
    const problem = modeGrantProblem(mode, this.leadMode(), asker);
    if (problem) throw new Refused(problem);
    // Without a sandbox a teammate can only have started in bypass, running commands unconfined:
    // another mode would keep them unconfined, so the same check as at spawn refuses it.
    const sandbox = sandboxFor(this.sandbox, mode);
    if (!sandbox.ok) throw new Refused(`cannot set ${name}'s mode: ${sandbox.error}`);
    await this.bus.send({ type: 'mode_set', from: LEAD, to: name, permission_mode: mode });
  }

  /** The human's own words to a running teammate: a user_message the lead signs, read as the user's, not the lead's. */
  async tell(name: string, text: string): Promise<{ id: string }> {
    await requireRunningTeammate(name, 'a message from the user', (n) => this.spawner.isRunning(n), this.store);
    if (text.trim() === '') throw new Refused('the message is empty');
    const sent = await this.bus.send({ type: 'user_message', from: LEAD, to: name, text });
    return { id: sent.id };
  }

  /** The human stops a running teammate's model call or tool: a signed interrupt its harness obeys; then it waits for them. */
  async interrupt(name: string): Promise<{ id: string }> {
    await requireRunningTeammate(name, 'an interrupt', (n) => this.spawner.isRunning(n), this.store);
    const sent = await this.bus.send({ type: 'interrupt', from: LEAD, to: name });
    // A call waiting for the human's decision is denied by the interrupt: its request leaves the queue.
    await this.bus.cancelPending(name, `${name} was interrupted by the user: the call no longer waits`, (r) => r.kind === 'permission' && r.from === name);
    return { id: sent.id };
  }

  /** Bring every running teammate's rules up to date with the settings file; resolves once the rules_set are sent. */
  syncRules(): Promise<void> {
    return this.rules.sync();
  }

  /** Follow the settings file, whoever changes it, until closed (when the lead stops). */
  watchRules(): Promise<{ close(): Promise<void> }> {
    return this.rules.watch();
  }

  /** /compact <name>: the teammate compacts now if idle, else before its next model call. */
  compact(name: string, instructions?: string): void {
    this.spawner.compact(name, instructions);
  }

  expectExit(name: string): void {
    this.spawner.expectExit(name);
  }

  /** The teammates whose processes run now. */
  running(): string[] {
    return this.spawner.running();
  }

  /** Work among running teammates the lead takes no part in (team-quiet.ts). */
  busyAmongThemselves(pending: readonly RequestRecord[], unread: (name: string) => Promise<number>): Promise<boolean> {
    return busyAmongThemselves(new Set(this.spawner.running()), pending, unread, this.store.roster);
  }

  /** The shutdown handshake with every teammate, then the process groups of any that did not go. */
  async stopAll(reason: string, graceMs: number): Promise<void> {
    const running = this.spawner.running();
    for (const name of running) await this.requestShutdown(name, reason).catch((error: unknown) => this.problem(`asking ${name} to shut down`, error));
    const left = await this.spawner.waitForExit(running, graceMs);
    if (left.length > 0) await this.spawner.killAll();
    await Promise.all([...this.exiting]);
  }

  private async exited(exit: ChildExit): Promise<void> {
    this.rules.forget(exit.name);
    const crashed = exit.code !== 0 && !exit.expected;
    const why = describeExit(exit);
    const member = (await this.store.roster.load())?.members.find((m) => m.name === exit.name);
    if (crashed) {
      await setMemberStatus(this.store.roster, exit.name, 'crashed', { pid: null });
      await this.bus.cancelPending(exit.name, `${exit.name} crashed (${why})`);
      // On the dead teammate's behalf: the lead's model learns which tasks failed with it, by board id.
      await this.board.teammateExited(exit.name, why, member?.task);
    } else {
      if (member && member.status !== 'shutdown') await setMemberStatus(this.store.roster, exit.name, 'shutdown', { pid: null });
      // Nothing will answer or wait for what it left pending: the human's queue must not offer it.
      await this.bus.cancelPending(exit.name, `${exit.name} exited (${why})`);
      await this.board.teammateExited(exit.name, undefined, member?.task);
    }
    await this.step({ type: 'child_exited', name: exit.name, code: exit.code, signal: exit.signal, why, crashed });
    await this.worktrees.settle(member);
  }
}
