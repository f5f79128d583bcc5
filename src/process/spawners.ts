import { EventStream, Refused } from '../lib/index.js';
import type { ChildCompaction, ChildExit, Spawner, StartedProcess, TeammateSpec } from './spawner.js';

/**
 * The lead's spawners behind one: this machine's supervisor and one per host that runs its
 * teammates elsewhere. A spawn goes where its spec says (`host`, undefined: here); everything
 * else goes to the spawner that runs the named teammate; exits and compactions of all are heard
 * here as one stream. A name runs in one place at a time, across every host.
 */
export class Spawners implements Spawner {
  readonly exits = new EventStream<ChildExit>();
  readonly compactions = new EventStream<ChildCompaction>();
  private readonly remote = new Map<string, { spawner: Spawner; unsubscribe: () => void }>();
  constructor(private readonly local: Spawner) {
    // For the lead's life: the local spawner is never detached.
    this.listen(local);
  }

  /** Teammates placed on `host` are started by `spawner` from now on, until the returned detach. */
  attach(host: string, spawner: Spawner): () => void {
    if (this.remote.has(host)) throw new Refused(`host '${host}' is already attached`);
    const entry = { spawner, unsubscribe: this.listen(spawner) };
    this.remote.set(host, entry);
    return () => {
      // Only the attachment it made: a host attached again since keeps its own.
      if (this.remote.get(host) !== entry) return;
      entry.unsubscribe();
      this.remote.delete(host);
    };
  }

  /** The hosts attached now, by name. */
  hosts(): string[] {
    return [...this.remote.keys()];
  }

  async spawn(spec: TeammateSpec, started?: (process: StartedProcess) => void): Promise<{ pid: number }> {
    const where = this.runningOn(spec.name);
    if (where) throw new Refused(`${spec.name} is already running${where === this.local ? '' : ` on host '${this.hostOf(where)}'`}`);
    const placement = this.placementProblem(spec.host);
    if (placement) throw new Refused(`cannot start ${spec.name}: ${placement}`);
    return this.placed(spec.host).spawn(spec, started);
  }

  placementProblem(host: string | undefined): string | undefined {
    if (host !== undefined && !this.remote.has(host)) {
      const known = this.hosts();
      return `no host '${host}' is attached (${known.length === 0 ? 'none is' : `attached: ${known.join(', ')}`})`;
    }
    return this.placed(host).placementProblem(host);
  }

  compact(name: string, instructions?: string): void {
    const where = this.runningOn(name);
    if (!where) throw new Refused(`${name} is not running`);
    where.compact(name, instructions);
  }

  isRunning(name: string): boolean {
    return this.runningOn(name) !== undefined;
  }

  running(): string[] {
    return this.all().flatMap((spawner) => spawner.running());
  }

  expectExit(name: string, graceMs?: number): void {
    this.runningOn(name)?.expectExit(name, graceMs);
  }

  async waitForExit(names: readonly string[], timeoutMs: number): Promise<string[]> {
    const left = await Promise.all(this.all().map((spawner) => spawner.waitForExit(names.filter((name) => spawner.isRunning(name)), timeoutMs)));
    return left.flat();
  }

  async killAll(): Promise<void> {
    await Promise.all(this.all().map((spawner) => spawner.killAll()));
  }

  private listen(spawner: Spawner): () => void {
    const exits = spawner.exits.subscribe((exit) => this.exits.emit(exit));
    const compactions = spawner.compactions.subscribe((compaction) => this.compactions.emit(compaction));
    return () => {
      exits();
      compactions();
    };
  }

  private all(): Spawner[] {
    return [this.local, ...[...this.remote.values()].map((entry) => entry.spawner)];
  }

  /** The spawner for `host` (placementProblem says first, and why, when there is none). */
  private placed(host: string | undefined): Spawner {
    if (host === undefined) return this.local;
    const entry = this.remote.get(host);
    if (!entry) throw new Refused(`no host '${host}' is attached`);
    return entry.spawner;
  }

  private runningOn(name: string): Spawner | undefined {
    return this.all().find((spawner) => spawner.isRunning(name));
  }

  private hostOf(spawner: Spawner): string | undefined {
    for (const [host, entry] of this.remote) if (entry.spawner === spawner) return host;
    return undefined;
  }
}
