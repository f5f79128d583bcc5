import type { PermissionMode } from '../protocol/index.js';
import type { SandboxSettings } from '../sandbox/index.js';
import type { PermissionRules } from '../policy/index.js';
import type { CompactReason } from '../agent/index.js';
import type { AgentRole } from './agent-role.js';
import type { McpServers } from '../tools/index.js';

/**
 * What the lead needs from whatever starts its teammates: the supervisor on this machine, or a
 * host elsewhere (`teams host`). The lead holds them behind one `Spawners` and depends on this
 * interface only, so where a teammate runs is the spawner's business, not the lead's.
 */

/** The variable a teammate's MCP servers reach it by; it takes it out of its environment at once, so nothing it starts inherits it. */
export const MCP_SERVERS_ENV = 'TEAMS_MCP_SERVERS';

export type TeammateSpec = {
  name: string;
  planMode: boolean;
  permissionMode: PermissionMode;
  sandbox: SandboxSettings;
  /** The project's permission rules as the lead read them: handed over, never read by the teammate. */
  rules: PermissionRules;
  /**
   * The project's MCP servers as the lead read them: handed over (by environment: an `env` may
   * hold a token), never read by the teammate, which starts each inside its own sandbox. None
   * for a teammate on another host.
   */
  mcpServers?: McpServers;
  /** Its own model: it reaches the process as TEAMS_MODEL, over the lead's. */
  model: string;
  /** The session its conversation is journaled in; `resume`: it goes on with the conversation journaled there. */
  journal: { session: string; resume: boolean };
  /** Where it works when not in the lead's directory: its own git worktree. */
  cwd?: string;
  /** The host it runs on (`teams host --name`); undefined: this machine, under the lead's supervisor. */
  host?: string;
  /** The agent definition it was spawned as, when one: its role's prompt and tools. */
  agent?: AgentRole;
};

/**
 * The process a spawn started, as soon as it exists: its pid on the machine it runs on, and its
 * start time there when that machine can tell (proc-start.ts), so the two name one process for good.
 */
export type StartedProcess = { pid: number; pid_start?: string };

export type ChildCompaction = { name: string; before: number; after: number; reason: CompactReason };

/** `cause`: why it ended when its code and signal cannot say (a remote teammate whose host went quiet). */
export type ChildExit = { name: string; pid: number; code: number | null; signal: NodeJS.Signals | null; expected: boolean; cause?: string };

/** How a teammate's process ended, for a person: "killed by SIGKILL", "code 1", or its cause. */
export function describeExit(exit: Pick<ChildExit, 'code' | 'signal' | 'cause'>): string {
  if (exit.cause !== undefined) return exit.cause;
  return exit.signal ? `killed by ${exit.signal}` : `code ${exit.code}`;
}

/** A stream the lead listens to; only its spawner emits. */
export type Heard<E> = { subscribe(listener: (event: E) => void): () => void };

export interface Spawner {
  /** Every teammate's exit, once, whoever ended it. */
  readonly exits: Heard<ChildExit>;
  /** A teammate compacted its conversation (for the lead's transcript). */
  readonly compactions: Heard<ChildCompaction>;
  /**
   * Start a teammate; resolves once it is ready (subscribed to its mailbox). `started` hears
   * its process at once, while it is still loading. Rejects, saying why, if it cannot start.
   */
  spawn(spec: TeammateSpec, started?: (process: StartedProcess) => void): Promise<{ pid: number }>;
  /** Why a teammate cannot be placed on `host` (undefined: this machine) by this spawner; undefined when it can. Asked before anything is written. */
  placementProblem(host: string | undefined): string | undefined;
  /** Tell a running teammate to compact its conversation; Refused when it is not running here. */
  compact(name: string, instructions?: string): void;
  isRunning(name: string): boolean;
  /** The teammates whose processes run now. */
  running(): string[];
  /** The teammate agreed to stop: give it `graceMs` (the spawner's default without) to exit, then end it. */
  expectExit(name: string, graceMs?: number): void;
  /** Resolves when every named teammate has exited, or after `timeoutMs` with the ones still running. */
  waitForExit(names: readonly string[], timeoutMs: number): Promise<string[]>;
  /** End every teammate now and wait until each has exited. */
  killAll(): Promise<void>;
}

/**
 * Resolves once none of `names` is running (as `isRunning` says), each seen leaving on `exits`,
 * or after `timeoutMs` with those still running: every spawner's waitForExit.
 */
export function waitForExits(exits: Heard<ChildExit>, isRunning: (name: string) => boolean, names: readonly string[], timeoutMs: number): Promise<string[]> {
  const pending = new Set(names.filter(isRunning));
  if (pending.size === 0) return Promise.resolve([]);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      unsubscribe();
      resolve([...pending]);
    }, timeoutMs);
    const unsubscribe = exits.subscribe((exit) => {
      pending.delete(exit.name);
      if (pending.size > 0) return;
      clearTimeout(timer);
      unsubscribe();
      resolve([]);
    });
  });
}
