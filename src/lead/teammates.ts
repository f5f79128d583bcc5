import { type EventStream, Refused, processStartTime, errorMessage } from '../lib/index.js';
import { newRequestId, summarize, type PermissionMode, agentNameProblem, LEAD, modeAfterPlan, type RequestRecord } from '../protocol/index.js';
import { type TeamBus, budgetProblem } from '../team/index.js';
import { addMember, setMemberStatus, type TeamStore } from '../store/index.js';
import type { LeadEvent } from './events.js';
import type { ChildExit, Supervisor } from '../process/index.js';
import { sandboxFor, type SandboxStatus } from '../sandbox/index.js';
import { reportProblem } from './report-problem.js';
import { modelIdProblem } from '../model/index.js';
import type { Spawned, SpawnSpec } from '../tools/index.js';
import type { LeadSession } from './session.js';
import { respawnPlan } from './respawn.js';
import { modeGrantProblem, type ModeAsker } from '../policy/index.js';
import type { RulesSync } from './rules-sync.js';
import type { TeammateWorktrees } from './teammate-worktrees.js';
import { LeadBoard } from './board.js';
import { busyAmongThemselves } from './team-quiet.js';
import { requireRunningTeammate } from './running-teammate.js';
import { worktreeBrief } from '../worktree/index.js';

/** The lead's side of its teammates' lives: spawning, asking them to stop, noticing exits. */
export class LeadTeammates {
  /**
   * Teammates whose idle notification the lead has received since it last gave them
   * anything. Per-sender order means everything they sent before it has arrived too.
   */
  private readonly idle = new Set<string>();
  /** When the lead last sent each teammate what starts a turn (ms). */
  private readonly lastSent = new Map<string, number>();
  /** Set once every teammate has been asked to shut down. */
  private stopping = false;
  /** Exits still being handled: a stop waits for them (an exited teammate's worktree is settled then). */
  private readonly exiting = new Set<Promise<void>>();
  /** The task board as the lead follows it: assignments sent, idle teammates told of work. */
  readonly board: LeadBoard;

  constructor(
    private readonly store: TeamStore,
    private readonly bus: TeamBus,
    private readonly supervisor: Supervisor,
    private readonly mode: PermissionMode,
    private readonly sandbox: SandboxStatus,
    private readonly events: EventStream<LeadEvent>,
    /** The model a teammate runs, given the one it was spawned with (settings.ts teammateModel). */
    private readonly modelFor: (requested: string | undefined) => string,
    /** The lead's session: every teammate journals its conversation in it. */
    private readonly session: LeadSession,
    /** The project's permission rules (settings.json): read at each spawn, handed over, and kept up to date in every running teammate. */
    private readonly rules: RulesSync,
    /** Teammates' own git worktrees (isolation: worktree): made before a start, settled after an exit. */
    private readonly worktrees: TeammateWorktrees,
  ) {
    // A team that is stopping is sent no more work: the board neither assigns nor offers.
    const running = () => (this.stopping ? [] : supervisor.running());
    const idle = () => running().filter((name) => this.idle.has(name));
    this.board = new LeadBoard(store, bus, { running, idle, problem: (what, e) => this.problem(what, e) });
    supervisor.exits.subscribe((exit) => {
      const handled: Promise<void> = this.exited(exit)
        .catch((error: unknown) => this.problem(`after ${exit.name} exited`, error))
        .finally(() => this.exiting.delete(handled));
      this.exiting.add(handled);
    });
    supervisor.compactions.subscribe((compaction) => this.events.emit({ type: 'teammate_compacted', ...compaction }));
    bus.sent.subscribe((envelope) => {
      // An interrupt or new rules start no turn (an idle teammate ignores it, and its model never
      // hears of rules), so they bring no idle notification either.
      if (envelope.from !== LEAD || envelope.type === 'interrupt' || envelope.type === 'rules_set') return;
      this.idle.delete(envelope.to);
      this.lastSent.set(envelope.to, Date.parse(envelope.timestamp));
    });
  }

  /** Shown and audited: something failed on the lead's side that no caller waits for. */
  private problem(what: string, error: unknown): void {
    reportProblem(this.store, this.events, what, errorMessage(error));
  }

  /**
   * A message from a teammate reached the lead (`sentAt`: when it was sent). An idle notification
   * sent before the lead's latest message to it says nothing of now: that message starts a
   * turn, which ends with a fresh one (a hook's feedback overtaking a stop, say).
   */
  heard(from: string, idleNow: boolean, sentAt?: string): void {
    const stale = idleNow && sentAt !== undefined && Date.parse(sentAt) <= (this.lastSent.get(from) ?? -Infinity);
    if (idleNow && !stale) this.idle.add(from);
    else this.idle.delete(from);
    if (idleNow && !stale && !this.stopping) this.board.idled(from);
  }

  async spawn(spec: SpawnSpec): Promise<Spawned> {
    const problem = agentNameProblem(spec.name) ?? (spec.model === undefined ? undefined : modelIdProblem(spec.model));
    if (problem) throw new Refused(problem);
    const model = this.modelFor(spec.model);
    if (spec.name === LEAD) throw new Refused(`'${LEAD}' is the lead's own name`);
    if (this.supervisor.isRunning(spec.name)) throw new Refused(`${spec.name} is already running`);
    // Unnamed, a teammate works in the lead's mode (plan becoming default); named, within the rule.
    const mode = spec.permissionMode ?? modeAfterPlan(this.mode);
    const modeProblem = modeGrantProblem(mode, this.mode, spec.asker ?? 'model');
    if (modeProblem) throw new Refused(modeProblem);
    // Asking for plan mode is asking for plan mode: it starts read-only until a plan is approved.
    const planMode = spec.planMode || mode === 'plan';
    // The spawn's task is a board task, the teammate's from the start: what it does is reported under that id.
    const subject = summarize(spec.prompt || spec.role);
    const description = spec.prompt || `You are the team's ${spec.role}. Wait for instructions from the lead.`;
    const task = await this.board.spawnTask(spec.name, subject, description);
    const started = this.start({ name: spec.name, role: spec.role, planMode, model, permissionMode: modeAfterPlan(mode), worktree: spec.isolation === 'worktree' }, { task_id: task.id, subject, description }, false);
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
    if (this.supervisor.isRunning(name)) throw new Refused(`${name} is running: only a teammate that crashed or was shut down can be respawned`);
    const { member, cancelled, planMode, permissionMode } = await respawnPlan(name, { store: this.store, bus: this.bus, session: this.session.id, leadMode: this.mode });
    // It keeps the model it ran before (the lead's, when the roster never named one).
    const task = await this.board.respawnTask(name, cancelled);
    const brief = { task_id: task.id, subject: task.subject, description: task.description };
    const model = this.modelFor(member.model ?? undefined);
    const { pid } = await this.start({ name, role: member.role, planMode, model, permissionMode, worktree: false }, brief, true).catch(async (error: unknown) => {
      await this.board.spawnFailed(task.id, name, error);
      throw error;
    });
    return { pid, cancelled, planMode };
  }

  /** A teammate's process started with `task` waiting in its mailbox; `resume`: with its journaled conversation. */
  private async start(
    spec: { name: string; role: string; planMode: boolean; model: string; permissionMode: PermissionMode; worktree: boolean },
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
    const member = team?.members.find((m) => m.name === spec.name);
    // Outside a git repository a worktree is refused here, before anything is written or started.
    const worktree = await this.worktrees.prepare(spec.name, member, spec.worktree, resume);
    // A spawn records its plan mode for any later respawn; a respawn keeps what its spawn recorded.
    const planModeSince = resume ? undefined : spec.planMode ? new Date().toISOString() : null;
    // The model is on the roster from the start; the teammate writes the one it runs again as it works.
    const startMode = spec.planMode ? 'plan' : permissionMode;
    if (!member) await addMember(this.store.roster, { name: spec.name, role: spec.role, status: 'starting', model: spec.model, plan_mode_since: planModeSince ?? undefined, permission_mode: startMode });
    else await setMemberStatus(this.store.roster, spec.name, 'starting', { model: spec.model, plan_mode_since: planModeSince, permission_mode: startMode });
    await this.worktrees.record(spec.name, member, worktree);
    // The task goes into the mailbox first: it is waiting there, durably, when the teammate starts.
    const brief = worktree === undefined ? task : { ...task, description: `${task.description}\n\n${worktreeBrief(worktree)}` };
    await this.bus.send({ type: 'task_assignment', from: LEAD, to: spec.name, ...brief });
    // Its journal goes into the lead's session, which exists from the first teammate on.
    await this.session.ensure();
    // The roster names the process from the start (so that, say, `teams member remove` sees it
    // running), written here while the teammate loads rather than by the teammate before "ready".
    const journal = { session: this.session.id, resume };
    const { pid } = await this.supervisor.spawn({ name: spec.name, planMode: spec.planMode, permissionMode, sandbox: sandbox.settings, rules, model: spec.model, journal, cwd: worktree?.path }, (pid) => {
      // Only the pid (with its start time), and only while the teammate has written no status of
      // its own: its first status change may land first, and must not be turned back to "starting".
      const start = processStartTime(pid);
      this.store.roster
        .update((draft) => {
          const started = draft.members.find((m) => m.name === spec.name);
          if (started?.status !== 'starting') return;
          started.pid = pid;
          if (start === undefined) delete started.pid_start;
          else started.pid_start = start;
        })
        .catch((error: unknown) => this.problem(`recording ${spec.name}'s pid`, error));
    });
    // From now on a change to the rules reaches it as a rules_set, one made since they were read included.
    await this.rules.handedOver(spec.name, rules);
    return { pid, model: spec.model };
  }

  async requestShutdown(name: string, reason: string | undefined): Promise<{ requestId: string }> {
    if (!this.supervisor.isRunning(name)) throw new Refused(`${name} is not running`);
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
    if (!this.supervisor.isRunning(name)) throw new Refused(`${name} is not running`);
    const problem = modeGrantProblem(mode, this.mode, asker);
    if (problem) throw new Refused(problem);
    // Without a sandbox a teammate can only have started in bypass, running commands unconfined:
    // another mode would keep them unconfined, so the same check as at spawn refuses it.
    const sandbox = sandboxFor(this.sandbox, mode);
    if (!sandbox.ok) throw new Refused(`cannot set ${name}'s mode: ${sandbox.error}`);
    await this.bus.send({ type: 'mode_set', from: LEAD, to: name, permission_mode: mode });
  }

  /** The human's own words to a running teammate: a user_message the lead signs, read as the user's, not the lead's. */
  async tell(name: string, text: string): Promise<{ id: string }> {
    await requireRunningTeammate(name, 'a message from the user', (n) => this.supervisor.isRunning(n), this.store);
    if (text.trim() === '') throw new Refused('the message is empty');
    const sent = await this.bus.send({ type: 'user_message', from: LEAD, to: name, text });
    return { id: sent.id };
  }

  /** The human stops a running teammate's model call or tool: a signed interrupt its harness obeys; then it waits for them. */
  async interrupt(name: string): Promise<{ id: string }> {
    await requireRunningTeammate(name, 'an interrupt', (n) => this.supervisor.isRunning(n), this.store);
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
  compact(name: string): void {
    this.supervisor.compact(name);
  }

  expectExit(name: string): void {
    this.supervisor.expectExit(name);
  }

  /** Whether any running teammate has not yet told the lead it is idle. */
  anyBusy(): boolean {
    return this.supervisor.running().some((name) => !this.idle.has(name));
  }

  /** Work among running teammates the lead takes no part in (team-quiet.ts). */
  busyAmongThemselves(pending: readonly RequestRecord[], unread: (name: string) => Promise<number>): Promise<boolean> {
    return busyAmongThemselves(new Set(this.supervisor.running()), pending, unread, this.store.roster);
  }

  /** The shutdown handshake with every teammate, then the process groups of any that did not go. */
  async stopAll(reason: string, graceMs: number): Promise<void> {
    this.stopping = true;
    const running = this.supervisor.running();
    for (const name of running) await this.requestShutdown(name, reason).catch((error: unknown) => this.problem(`asking ${name} to shut down`, error));
    const left = await this.supervisor.waitForExit(running, graceMs);
    if (left.length > 0) await this.supervisor.killAll();
    await Promise.all([...this.exiting]);
  }

  private async exited(exit: ChildExit): Promise<void> {
    this.rules.forget(exit.name);
    const crashed = exit.code !== 0 && !exit.expected;
    const member = (await this.store.roster.load())?.members.find((m) => m.name === exit.name);
    if (crashed) {
      await setMemberStatus(this.store.roster, exit.name, 'crashed', { pid: null });
      const why = exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.code}`;
      await this.bus.cancelPending(exit.name, `${exit.name} crashed (${why})`);
      // On the dead teammate's behalf: the lead's model learns which tasks failed with it, by board id.
      await this.board.teammateExited(exit.name, why);
    } else {
      if (member && member.status !== 'shutdown') await setMemberStatus(this.store.roster, exit.name, 'shutdown', { pid: null });
      await this.board.teammateExited(exit.name, undefined);
    }
    this.events.emit({ type: 'teammate_exit', name: exit.name, code: exit.code, signal: exit.signal, crashed });
    await this.worktrees.settle(member);
  }
}
