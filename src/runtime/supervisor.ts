import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { EventStream } from '../lib/event-stream.js';
import type { PermissionMode } from '../protocol/messages.js';
import type { TeamPaths } from '../team/paths.js';
import { reapCommands } from './command-registry.js';

/** The entry a teammate process runs. */
export const TEAMMATE_ENTRY = fileURLToPath(new URL('./teammate-main.js', import.meta.url));

export type TeammateSpec = { name: string; planMode: boolean; permissionMode: PermissionMode };

export type ChildExit = { name: string; pid: number; code: number | null; signal: NodeJS.Signals | null; expected: boolean };

/** What a teammate tells its parent over the IPC channel. */
export const ChildSignal = z.discriminatedUnion('type', [z.object({ type: z.literal('ready') })]);

type Tracked = { child: ChildProcess; pid: number; expected: boolean; graceTimer?: NodeJS.Timeout; ready: Promise<void> };

/**
 * Starts teammate processes and watches them. Each teammate is its own process group, so
 * ending it ends whatever it started; each keeps an IPC channel to this process, which
 * closes when this process dies in any way, so a teammate never outlives its lead.
 */
export class Supervisor {
  readonly exits = new EventStream<ChildExit>();
  private readonly children = new Map<string, Tracked>();

  constructor(
    private readonly paths: TeamPaths,
    private readonly options: { env: Record<string, string>; cwd: string; graceMs: number },
  ) {}

  /** Start a teammate; resolves once it is ready (subscribed to its mailbox, model open). */
  async spawn(spec: TeammateSpec): Promise<{ pid: number }> {
    if (this.children.has(spec.name)) throw new Error(`${spec.name} is already running (pid ${this.children.get(spec.name)?.pid})`);
    const logs = join(this.paths.root, 'logs');
    mkdirSync(logs, { recursive: true });
    const log = openSync(join(logs, `${spec.name}.log`), 'a');
    const args = [TEAMMATE_ENTRY, '--home', this.paths.home, '--team', this.paths.team, '--permission-mode', spec.permissionMode, spec.name];
    if (spec.planMode) args.push('--plan-mode');
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, args, {
        cwd: this.options.cwd,
        env: { ...process.env, ...this.options.env },
        detached: true,
        stdio: ['ignore', log, log, 'ipc'],
      });
    } finally {
      closeSync(log);
    }
    const pid = child.pid;
    if (pid === undefined) throw new Error(`could not start ${spec.name}`);
    const ready = new Promise<void>((resolve, reject) => {
      child.on('message', (raw) => {
        if (ChildSignal.safeParse(raw).success) resolve();
      });
      child.once('exit', (code, signal) => reject(new Error(`${spec.name} exited before it was ready (code ${code}, signal ${signal}); see ${join(logs, `${spec.name}.log`)}`)));
    });
    const tracked: Tracked = { child, pid, expected: false, ready };
    this.children.set(spec.name, tracked);
    child.once('exit', (code, signal) => {
      clearTimeout(tracked.graceTimer);
      this.children.delete(spec.name);
      // Whatever the teammate's commands left running goes with it.
      reapCommands(this.paths, spec.name);
      killGroup(pid);
      this.exits.emit({ name: spec.name, pid, code, signal, expected: tracked.expected });
    });
    await ready;
    return { pid };
  }

  isRunning(name: string): boolean {
    return this.children.has(name);
  }

  running(): string[] {
    return [...this.children.keys()];
  }

  /** The process ids of the running teammates. */
  pids(): Set<number> {
    return new Set([...this.children.values()].map((tracked) => tracked.pid));
  }

  /** The teammate agreed to stop: give it `graceMs` to exit, then end its process group. */
  expectExit(name: string, graceMs = this.options.graceMs): void {
    const tracked = this.children.get(name);
    if (!tracked) return;
    tracked.expected = true;
    clearTimeout(tracked.graceTimer);
    tracked.graceTimer = setTimeout(() => killGroup(tracked.pid), graceMs);
  }

  /** Resolves when every teammate has exited, or after `timeoutMs` with the ones still running. */
  async waitForExit(names: string[], timeoutMs: number): Promise<string[]> {
    const pending = new Set(names.filter((n) => this.children.has(n)));
    if (pending.size === 0) return [];
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        unsubscribe();
        resolve([...pending]);
      }, timeoutMs);
      const unsubscribe = this.exits.subscribe((exit) => {
        pending.delete(exit.name);
        if (pending.size === 0) {
          clearTimeout(timer);
          unsubscribe();
          resolve([]);
        }
      });
    });
  }

  /** End every teammate's process group now and wait until each has exited. */
  async killAll(): Promise<void> {
    const names = this.running();
    for (const name of names) {
      const tracked = this.children.get(name);
      if (tracked) {
        tracked.expected = true;
        killGroup(tracked.pid);
      }
    }
    await this.waitForExit(names, 10_000);
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}
