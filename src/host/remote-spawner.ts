import { EventStream, Refused, errorMessage } from '../lib/index.js';
import type { KeyRing } from '../protocol/index.js';
import { rulesAsText } from '../policy/index.js';
import { waitForExits, type ChildCompaction, type ChildExit, type Spawner, type StartedProcess, type TeammateSpec } from '../process/index.js';
import { HOST_STALE_MS, type Subscription, type TeamStore } from '../store/index.js';
import type { KeyPair } from './key-file.js';
import type { Order, OrderBody, RemoteSpec } from './orders.js';
import { lineId } from './reporter.js';
import type { Report, ReportGate } from './reports.js';
import { signLine } from './signed-line.js';

type Placed = {
  order: string;
  pid?: number;
  ready: boolean;
  expected: boolean;
  started: (process: StartedProcess) => void;
  settle: { resolve: (pid: number) => void; reject: (error: Error) => void };
};

/**
 * The lead's spawner for one host: what the local Supervisor does, done by signed orders in the
 * host's channel and learnt from its verified reports. A host that stops beating has its
 * teammates exit unexpectedly (`hostGone`), so the lead handles them as any crash.
 */
export class RemoteSpawner implements Spawner {
  readonly exits = new EventStream<ChildExit>();
  readonly compactions = new EventStream<ChildCompaction>();
  private readonly placed = new Map<string, Placed>();
  private reports: Subscription | undefined;
  /** The host's last beat seen, and how long before the store's now it was, as last looked at. */
  private lastBeat: string | undefined;
  private quietMs = 0;

  constructor(
    readonly host: string,
    /** The run the host registered with: orders are for it alone. */
    readonly run: string,
    private readonly deps: {
      store: TeamStore;
      anchor: KeyPair;
      gate: ReportGate;
      keys: KeyRing;
      leadKey: string;
      graceMs: number;
      /** A teammate here told its key: the lead's other teammates must learn it. */
      keysChanged: () => void;
      problem: (what: string, reason: string) => void;
    },
  ) {}

  async open(): Promise<void> {
    this.reports = await this.deps.store.hosts.reports.follow(this.host, (batch) => {
      for (const line of batch.lines) {
        const admitted = this.deps.gate.admit(line);
        if (admitted.ok) this.take(admitted.value);
        else this.deps.problem(`a report from host ${this.host} was refused`, admitted.reason);
      }
    });
  }

  private async order(body: OrderBody): Promise<string> {
    const order: Order = { id: lineId(), to: this.host, run: this.run, body };
    await this.deps.store.hosts.orders.append(this.host, signLine(this.deps.anchor.privateKey, order));
    return order.id;
  }

  /** A verified report: believed only about a teammate this spawner placed, by the order that placed it. */
  private take(report: Report): void {
    const placed = this.placed.get(report.name);
    if (placed?.order !== report.order) return;
    const { body } = report;
    if (body.type === 'key') {
      this.deps.keys.set(report.name, body.public_key);
      this.deps.keysChanged();
    } else if (body.type === 'started') {
      placed.pid = body.pid;
      // A pid on another machine: no start time read here could vouch for it (its host's beat does).
      placed.started({ pid: body.pid });
    } else if (body.type === 'ready') {
      placed.ready = true;
      placed.settle.resolve(body.pid);
    } else if (body.type === 'failed') {
      this.placed.delete(report.name);
      placed.settle.reject(new Error(`${report.name} could not start on host ${this.host}: ${body.reason}`));
    } else if (body.type === 'compacted') {
      this.compactions.emit({ name: report.name, before: body.before, after: body.after, reason: body.reason });
    } else {
      // Expected only if the lead asked for it: a host stopped by its human ended it unasked.
      this.ended(report.name, placed, { pid: body.pid, code: body.code, signal: body.signal as NodeJS.Signals | null, expected: placed.expected });
    }
  }

  private ended(name: string, placed: Placed, exit: Omit<ChildExit, 'name'>): void {
    this.placed.delete(name);
    this.deps.keys.delete(name);
    if (!placed.ready) placed.settle.reject(new Error(`${name} exited on host ${this.host} before it was ready (code ${exit.code}, signal ${exit.signal})`));
    // Only a teammate that had a process has an exit, as with a local one.
    if (placed.pid !== undefined || exit.pid !== 0) this.exits.emit({ name, ...exit });
  }

  /**
   * The host's beat as the lead last looked (undefined: its registration is gone), by the store's
   * clock. Quiet for longer than HOST_STALE_MS, it is taken for dead: its teammates exit unexpectedly.
   */
  beatAt(lastBeat: string | undefined, now: string): void {
    // A registration gone (the host deregistered) counts from its last beat seen: the exits it
    // reported before going may still be on their way.
    if (lastBeat !== undefined) this.lastBeat = lastBeat;
    if (this.lastBeat === undefined) return;
    this.quietMs = Math.max(0, Date.parse(now) - Date.parse(this.lastBeat));
    if (this.quietMs > HOST_STALE_MS) this.hostGone();
  }

  placementProblem(host: string | undefined): string | undefined {
    if (host !== this.host) return `host ${this.host} places only its own teammates`;
    if (this.quietMs > HOST_STALE_MS) return `host ${this.host} has not beaten for ${Math.round(this.quietMs / 1000)} s: it is not running`;
    return undefined;
  }

  async spawn(spec: TeammateSpec, started: (process: StartedProcess) => void = () => undefined): Promise<{ pid: number }> {
    const placement = this.placementProblem(spec.host);
    if (placement) throw new Refused(`cannot start ${spec.name}: ${placement}`);
    if (spec.cwd !== undefined) throw new Refused(`cannot start ${spec.name} on host ${this.host}: worktrees are not available on hosts yet`);
    if (this.placed.has(spec.name)) throw new Refused(`${spec.name} is already running on host ${this.host}`);
    const remote: RemoteSpec = { name: spec.name, planMode: spec.planMode, permissionMode: spec.permissionMode, sandbox: spec.sandbox, rules: rulesAsText(spec.rules), model: spec.model, journal: spec.journal, ...(spec.agent ? { agent: spec.agent } : {}) };
    const ready = new Promise<number>((resolve, reject) => {
      this.placed.set(spec.name, { order: '', ready: false, expected: false, started, settle: { resolve, reject } });
    });
    const placed = this.placed.get(spec.name);
    try {
      const id = await this.order({ type: 'spawn', spec: remote, lead_key: this.deps.leadKey, keys: this.deps.keys.entries() });
      if (placed) placed.order = id;
    } catch (error) {
      this.placed.delete(spec.name);
      throw new Error(`cannot order ${spec.name}'s start on host ${this.host}: ${errorMessage(error)}`);
    }
    return { pid: await ready };
  }

  /** The team's keys now, to every teammate on the host. */
  async shareKeys(): Promise<void> {
    if (this.placed.size > 0) await this.order({ type: 'keys', keys: this.deps.keys.entries() });
  }

  compact(name: string, instructions?: string): void {
    if (!this.isRunning(name)) throw new Refused(`${name} is not running`);
    this.order({ type: 'compact', name, ...(instructions === undefined ? {} : { instructions }) }).catch((error: unknown) => this.deps.problem(`compacting ${name} on host ${this.host}`, errorMessage(error)));
  }

  isRunning(name: string): boolean {
    return this.placed.has(name);
  }

  running(): string[] {
    return [...this.placed.keys()];
  }

  expectExit(name: string, graceMs = this.deps.graceMs): void {
    const placed = this.placed.get(name);
    if (!placed) return;
    placed.expected = true;
    this.order({ type: 'expect_exit', name, grace_ms: graceMs }).catch((error: unknown) => this.deps.problem(`ending ${name} on host ${this.host}`, errorMessage(error)));
  }

  waitForExit(names: readonly string[], timeoutMs: number): Promise<string[]> {
    return waitForExits(this.exits, (name) => this.placed.has(name), names, timeoutMs);
  }

  /** End every teammate on the host; one the host does not report ended within 10 s is taken for gone. */
  async killAll(): Promise<void> {
    const names = this.running();
    if (names.length === 0) return;
    for (const placed of this.placed.values()) placed.expected = true;
    await this.order({ type: 'kill_all' }).catch((error: unknown) => this.deps.problem(`ending the teammates on host ${this.host}`, errorMessage(error)));
    const left = await this.waitForExit(names, 10_000);
    for (const name of left) this.gone(name, true, `its host '${this.host}' did not report it ended within 10 s`);
  }

  /** The host stopped beating: each of its teammates exited, unexpectedly unless it had been told to stop. */
  hostGone(): void {
    const cause = `its host '${this.host}' stopped beating: no signed beat for ${(this.quietMs / 1000).toFixed(1)} s`;
    for (const name of this.running()) this.gone(name, false, cause);
  }

  private gone(name: string, expected: boolean, cause: string): void {
    const placed = this.placed.get(name);
    if (placed) this.ended(name, placed, { pid: placed.pid ?? 0, code: null, signal: null, expected: expected || placed.expected, cause });
  }

  async close(): Promise<void> {
    await this.reports?.close();
  }
}
