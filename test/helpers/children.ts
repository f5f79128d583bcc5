import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitFor } from './wait.js';

/** The compiled repository root (dist/test/helpers → repo). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The compiled tree, where fixtures and the CLI entry live. */
export const DIST = fileURLToPath(new URL('../../', import.meta.url));

export type Child = {
  process: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

const live = new Set<ChildProcess>();

/**
 * Spawn a Node script as its own process group, capturing output. Every child is
 * tracked so that `killAll` (run in each test's `after`) leaves no process behind.
 */
export function spawnNode(script: string, args: string[] = [], options: SpawnOptions = {}): Child {
  return spawnTracked(process.execPath, [script, ...args], options);
}

/** Any command, tracked as spawnNode's children are (its own process group, killed by killAll). */
export function spawnTracked(command: string, args: string[] = [], options: SpawnOptions = {}): Child {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...options });
  if (child.pid === undefined) throw new Error(`failed to spawn ${command}`);
  live.add(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
  });
  return { process: child, pid: child.pid, stdout: () => out, stderr: () => err, exited };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILL every tracked child's whole process group and wait until each is gone. */
export async function killAll(): Promise<void> {
  const children = [...live];
  for (const child of children) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await waitFor(() => children.every((c) => c.exitCode !== null || c.signalCode !== null), 'tracked children to exit');
}
