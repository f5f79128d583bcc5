import { killProcessGroup, EventStream, PACKAGE_ROOT, Refused, processStartTime } from '../lib/index.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import type { KeyRing } from '../protocol/index.js';
import { rulesAsText } from '../policy/index.js';
import type { TeamPaths } from '../team/index.js';
import { ChildSignal, type ParentSignal } from './ipc.js';
import { MCP_SERVERS_ENV, waitForExits, type ChildCompaction, type ChildExit, type Spawner, type StartedProcess, type TeammateSpec } from './spawner.js';

/**
 * The entry a teammate process runs: teammate/main.ts as the esbuild bundle that `npm run build`
 * writes. It starts faster and holds less memory than the same code as separate modules, and
 * the model SDK is a chunk of its own, loaded only after "ready". There is one teammate path,
 * the one the tests run; tsc's copy of the entry is never started.
 */
export const TEAMMATE_ENTRY = join(PACKAGE_ROOT, 'dist', 'bundle', 'teammate', 'main.js');

type Tracked = {
  child: ChildProcess;
  pid: number;
  expected: boolean;
  graceTimer?: NodeJS.Timeout;
  /** Command process groups the teammate reported over IPC: pgid → the leader's start time. */
  commands: Map<number, string>;
  /** Set at its exit: a group reported after that (the message was still in the pipe) is ended at once. */
  exited: boolean;
};

/** How long a running teammate has to acknowledge a new member's key before the spawn goes on. */
const KEYS_ACK_MS = 5_000;

/**
 * The local spawner: starts teammate processes on this machine and watches them. Each teammate
 * is its own process group, so ending it ends whatever it started; each keeps an IPC channel to
 * this process, which closes when this process dies in any way, so a teammate never outlives
 * its lead.
 */
export class Supervisor implements Spawner {
  readonly exits = new EventStream<ChildExit>();
  readonly compactions = new EventStream<ChildCompaction>();
  private readonly children = new Map<string, Tracked>();
  private keysSeq = 0;
  private readonly keysAcks = new Map<number, Set<string>>();
  private readonly keysAcked = new EventStream<number>();

  constructor(
    private readonly paths: TeamPaths,
    private readonly options: {
      env: Record<string, string>;
      cwd: string;
      graceMs: number;
      keys: KeyRing;
      leadKey: string;
      /** Where a teammate's stdout and stderr go instead of its log file here: a host pipes them into the store's agent log. */
      output?: (name: string, streams: readonly Readable[]) => void;
    },
  ) {}

  /** Its model loads after "ready"; a spec placed on another host is not this spawner's. */
  async spawn(spec: TeammateSpec, started: (process: StartedProcess) => void = () => undefined): Promise<{ pid: number }> {
    const placement = this.placementProblem(spec.host);
    if (placement) throw new Refused(`cannot start ${spec.name}: ${placement}`);
    if (this.children.has(spec.name)) throw new Error(`${spec.name} is already running (pid ${this.children.get(spec.name)?.pid})`);
    if (!existsSync(TEAMMATE_ENTRY)) throw new Error(`cannot start ${spec.name}: ${TEAMMATE_ENTRY} is missing (npm run build writes it)`);
    const logs = join(this.paths.root, 'logs');
    mkdirSync(logs, { recursive: true });
    const { output } = this.options;
    const log = output ? 'pipe' : openSync(join(logs, `${spec.name}.log`), 'a');
    const args = [
      TEAMMATE_ENTRY,
      '--home', this.paths.home,
      '--team', this.paths.team,
      '--permission-mode', spec.permissionMode,
      // Trust is handed over here, by the process that starts the teammate, never read from a file.
      '--lead-key', this.options.leadKey,
      '--sandbox', JSON.stringify(spec.sandbox),
      '--rules', JSON.stringify(rulesAsText(spec.rules)),
      '--session', spec.journal.session,
      spec.name,
    ];
    if (spec.planMode) args.push('--plan-mode');
    if (spec.journal.resume) args.push('--resume');
    if (spec.agent) args.push('--agent', JSON.stringify(spec.agent));
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, args, {
        cwd: spec.cwd ?? this.options.cwd,
        env: { ...process.env, ...this.options.env, TEAMS_MODEL: spec.model, [MCP_SERVERS_ENV]: JSON.stringify(spec.mcpServers ?? {}) },
        detached: true,
        stdio: ['ignore', log, log, 'ipc'],
      });
    } finally {
      if (typeof log === 'number') closeSync(log);
    }
    if (output && child.stdout && child.stderr) output(spec.name, [child.stdout, child.stderr]);
    const pid = child.pid;
    if (pid === undefined) throw new Error(`could not start ${spec.name}`);
    const tracked: Tracked = { child, pid, expected: false, commands: new Map(), exited: false };
    let sharing: Promise<void> | undefined;
    const ready = new Promise<void>((resolve, reject) => {
      child.on('message', (raw) => {
        const signal = ChildSignal.safeParse(raw);
        if (!signal.success) return;
        const message = signal.data;
        if (message.type === 'key') {
          this.options.keys.set(spec.name, message.public_key);
          // The team learns the new key while its owner finishes starting, not after.
          sharing = this.shareKeys();
        } else if (message.type === 'ready') resolve();
        else if (message.type === 'command_started') {
          tracked.commands.set(message.pgid, message.start_time);
          if (tracked.exited) endCommands(tracked);
        }
        else if (message.type === 'command_ended') tracked.commands.delete(message.pgid);
        else if (message.type === 'compacted') this.compactions.emit({ name: spec.name, before: message.before, after: message.after, reason: message.reason });
        else this.acked(message.seq, spec.name);
      });
      child.once('exit', (code, signal) => reject(new Error(`${spec.name} exited before it was ready (code ${code}, signal ${signal}); see ${join(logs, `${spec.name}.log`)}`)));
    });
    this.children.set(spec.name, tracked);
    child.once('exit', (code, signal) => {
      clearTimeout(tracked.graceTimer);
      this.children.delete(spec.name);
      // Whatever the teammate's commands left running goes with it: only groups it reported
      // over IPC, and only while their leader is still the process that was reported.
      tracked.exited = true;
      endCommands(tracked);
      killProcessGroup(pid);
      for (const seq of this.keysAcks.keys()) this.acked(seq, spec.name);
      this.exits.emit({ name: spec.name, pid, code, signal, expected: tracked.expected });
    });
    const start = processStartTime(pid);
    started(start === undefined ? { pid } : { pid, pid_start: start });
    await ready;
    await (sharing ?? this.shareKeys());
    return { pid };
  }

  /**
   * Hand every running teammate the team's keys and wait (briefly) until each has them, so
   * that the new member's first message to a teammate is not refused as unverifiable.
   */
  async shareKeys(): Promise<void> {
    const seq = ++this.keysSeq;
    const waiting = new Set<string>();
    const signal: ParentSignal = { type: 'keys', seq, keys: this.options.keys.entries() };
    for (const [name, tracked] of this.children) {
      if (!tracked.child.connected) continue;
      waiting.add(name);
      tracked.child.send(signal, (error) => {
        if (error) this.acked(seq, name);
      });
    }
    if (waiting.size === 0) return;
    this.keysAcks.set(seq, waiting);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, KEYS_ACK_MS);
      const unsubscribe = this.keysAcked.subscribe((acked) => acked === seq && done());
      function done(): void {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      }
    });
    this.keysAcks.delete(seq);
  }

  private acked(seq: number, name: string): void {
    const waiting = this.keysAcks.get(seq);
    if (!waiting) return;
    waiting.delete(name);
    if (waiting.size === 0) this.keysAcked.emit(seq);
  }

  placementProblem(host: string | undefined): string | undefined {
    return host === undefined ? undefined : `this machine's supervisor starts no teammate on host '${host}'`;
  }

  /** Tell a teammate to compact its conversation: now if it is idle, else before its next model call. */
  compact(name: string, instructions?: string): void {
    const tracked = this.children.get(name);
    if (!tracked?.child.connected) throw new Refused(`${name} is not running`);
    // With a callback, a send that fails (the teammate exiting just now) is not an 'error' event on the child.
    tracked.child.send({ type: 'compact', ...(instructions === undefined ? {} : { instructions }) } satisfies ParentSignal, () => undefined);
  }

  isRunning(name: string): boolean {
    return this.children.has(name);
  }

  running(): string[] {
    return [...this.children.keys()];
  }

  /** The teammate agreed to stop: give it `graceMs` to exit, then end its process group. */
  expectExit(name: string, graceMs = this.options.graceMs): void {
    const tracked = this.children.get(name);
    if (!tracked) return;
    tracked.expected = true;
    clearTimeout(tracked.graceTimer);
    tracked.graceTimer = setTimeout(() => killProcessGroup(tracked.pid), graceMs);
  }

  /** Resolves when every teammate has exited, or after `timeoutMs` with the ones still running. */
  waitForExit(names: readonly string[], timeoutMs: number): Promise<string[]> {
    return waitForExits(this.exits, (name) => this.children.has(name), names, timeoutMs);
  }

  /** End every teammate's process group now and wait until each has exited. */
  async killAll(): Promise<void> {
    const names = this.running();
    for (const name of names) {
      const tracked = this.children.get(name);
      if (tracked) {
        tracked.expected = true;
        killProcessGroup(tracked.pid);
      }
    }
    await this.waitForExit(names, 10_000);
  }
}

/** The groups a teammate reported, each only while its leader is still the process reported. */
function endCommands(tracked: Tracked): void {
  for (const [pgid, startTime] of tracked.commands) if (processStartTime(pgid) === startTime) killProcessGroup(pgid);
  tracked.commands.clear();
}
