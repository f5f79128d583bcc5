import { errorMessage } from '../lib/index.js';
import { KeyRing } from '../protocol/index.js';
import { RulesText } from '../policy/index.js';
import { Supervisor, type TeammateSpec } from '../process/index.js';
import { bwrapProgram, probeSandbox, type SandboxSettings } from '../sandbox/index.js';
import type { TeamPaths } from '../team/index.js';
import type { OrderBody } from './orders.js';
import type { HostReporter } from './reporter.js';
import { pipeLines } from './output-lines.js';
import type { Readable } from 'node:stream';
import type { AgentLogs } from '../store/index.js';

type SpawnOrder = Extract<OrderBody, { type: 'spawn' }>;

/**
 * The keys a host's supervisor keeps: a teammate's own key, told over IPC, is relayed to the
 * lead as a signed report as it is kept; the team's keys, from the lead's orders, are only kept.
 */
class RelayingKeyRing extends KeyRing {
  constructor(private readonly relay: (name: string, key: string) => void) {
    super();
  }

  override set(name: string, key: string): void {
    super.set(name, key);
    this.relay(name, key);
  }

  keep(keys: Record<string, string>): void {
    for (const [name, key] of Object.entries(keys)) super.set(name, key);
  }
}

/**
 * The teammates a host runs, with a local Supervisor per lead process (each hands its teammates
 * that lead's key): its own sandbox, its own model environment, its own working directory.
 * Everything that happens to them goes back to the lead as reports about the spawn order.
 */
export class HostTeammates {
  private readonly supervisors = new Map<string, { supervisor: Supervisor; keys: RelayingKeyRing }>();
  /** The spawn order each running teammate was started by: its reports name it. */
  private readonly orderOf = new Map<string, string>();
  private readonly probes = new Map<string, string | undefined>();

  constructor(
    private readonly paths: TeamPaths,
    private readonly options: { env: Record<string, string>; cwd: string; graceMs: number; logs: AgentLogs },
    private readonly report: HostReporter,
    private readonly problem: (what: string) => void,
  ) {}

  private send(name: string, body: Parameters<HostReporter>[2]): void {
    const order = this.orderOf.get(name);
    if (order !== undefined) this.report(order, name, body).catch((error: unknown) => this.problem(`reporting on ${name}: ${errorMessage(error)}`));
  }

  private supervisorFor(leadKey: string) {
    let entry = this.supervisors.get(leadKey);
    if (entry) return entry;
    const keys = new RelayingKeyRing((name, key) => this.send(name, { type: 'key', public_key: key }));
    const { logs, ...options } = this.options;
    // The teammate's output goes into the team's store, where the lead's `teams logs` and views read it.
    const output = (name: string, streams: readonly Readable[]) => {
      for (const stream of streams) pipeLines(stream, (lines) => logs.append(name, lines), (reason) => this.problem(`${name}'s output: ${reason}`));
    };
    const supervisor = new Supervisor(this.paths, { ...options, keys, leadKey, output });
    supervisor.exits.subscribe((exit) => {
      const { pid, code, signal, expected } = exit;
      this.send(exit.name, { type: 'exit', pid, code, signal, expected });
      this.orderOf.delete(exit.name);
    });
    supervisor.compactions.subscribe(({ name, before, after, reason }) => this.send(name, { type: 'compacted', before, after, reason }));
    entry = { supervisor, keys };
    this.supervisors.set(leadKey, entry);
    return entry;
  }

  /** The sandbox the lead asked for, with this machine's bubblewrap, or why this machine cannot give it. */
  private localSandbox(wanted: SandboxSettings): { ok: true; settings: SandboxSettings } | { ok: false; reason: string } {
    if (wanted.kind === 'off') return { ok: true, settings: wanted };
    const bwrap = bwrapProgram();
    if (!this.probes.has(wanted.network)) {
      const probe = probeSandbox(bwrap, wanted.network);
      this.probes.set(wanted.network, probe.ok ? undefined : probe.reason);
    }
    const reason = this.probes.get(wanted.network);
    return reason === undefined ? { ok: true, settings: { ...wanted, bwrap } } : { ok: false, reason: `no sandbox on this host: ${reason}` };
  }

  async spawn(orderId: string, order: SpawnOrder): Promise<void> {
    const { spec } = order;
    const fail = (reason: string) => this.report(orderId, spec.name, { type: 'failed', reason });
    if (this.isRunning(spec.name)) return fail(`${spec.name} is already running on this host`);
    const sandbox = this.localSandbox(spec.sandbox);
    if (!sandbox.ok) return fail(sandbox.reason);
    const rules = RulesText.safeParse(spec.rules);
    if (!rules.success) return fail(`the rules handed over do not parse: ${rules.error.message}`);
    const { supervisor, keys } = this.supervisorFor(order.lead_key);
    keys.keep(order.keys);
    this.orderOf.set(spec.name, orderId);
    const local: TeammateSpec = { ...spec, sandbox: sandbox.settings, rules: rules.data };
    try {
      const { pid } = await supervisor.spawn(local, (started) => this.send(spec.name, { type: 'started', pid: started.pid }));
      this.send(spec.name, { type: 'ready', pid });
    } catch (error) {
      // An exit before "ready" was reported as an exit already; this says why the spawn failed.
      await fail(errorMessage(error));
    }
  }

  /** The team's keys now, from the lead: every running teammate here gets them. */
  async keys(keys: Record<string, string>): Promise<void> {
    for (const { supervisor, keys: ring } of this.supervisors.values()) {
      ring.keep(keys);
      await supervisor.shareKeys();
    }
  }

  compact(name: string, instructions?: string): void {
    for (const { supervisor } of this.supervisors.values()) if (supervisor.isRunning(name)) supervisor.compact(name, instructions);
  }

  expectExit(name: string, graceMs: number): void {
    for (const { supervisor } of this.supervisors.values()) supervisor.expectExit(name, graceMs);
  }

  isRunning(name: string): boolean {
    return [...this.supervisors.values()].some(({ supervisor }) => supervisor.isRunning(name));
  }

  running(): string[] {
    return [...this.supervisors.values()].flatMap(({ supervisor }) => supervisor.running());
  }

  /** End the teammates started by any lead process but `leadKey`'s, and wait for them; their names. */
  async endAllBut(leadKey: string | undefined): Promise<string[]> {
    const others = [...this.supervisors].filter(([key]) => key !== leadKey).map(([, { supervisor }]) => supervisor);
    const names = others.flatMap((supervisor) => supervisor.running());
    await Promise.all(others.map((supervisor) => supervisor.killAll()));
    return names;
  }

  /** End every teammate here now and wait until each has exited (and its exit was reported). */
  async killAll(): Promise<void> {
    await Promise.all([...this.supervisors.values()].map(({ supervisor }) => supervisor.killAll()));
  }
}
