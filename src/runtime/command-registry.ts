import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TeamPaths } from '../team/paths.js';

/**
 * A teammate's shell commands run in process groups of their own (so a timeout can end a
 * whole command tree). If the teammate is killed, nothing inside it can end them, so it
 * registers each group here while it runs, and the supervisor reaps what is left.
 */
function dir(paths: TeamPaths, agent: string): string {
  return join(paths.root, 'procs', agent);
}

export function registerCommand(paths: TeamPaths, agent: string, pgid: number): void {
  mkdirSync(dir(paths, agent), { recursive: true });
  writeFileSync(join(dir(paths, agent), String(pgid)), '');
}

export function unregisterCommand(paths: TeamPaths, agent: string, pgid: number): void {
  rmSync(join(dir(paths, agent), String(pgid)), { force: true });
}

/** SIGKILL every command group an agent left registered; returns how many were reaped. */
export function reapCommands(paths: TeamPaths, agent: string): number {
  let entries: string[];
  try {
    entries = readdirSync(dir(paths, agent));
  } catch {
    return 0;
  }
  let reaped = 0;
  for (const entry of entries) {
    const pgid = Number(entry);
    if (Number.isInteger(pgid) && pgid > 1) {
      try {
        process.kill(-pgid, 'SIGKILL');
        reaped++;
      } catch {
        // already gone
      }
    }
    rmSync(join(dir(paths, agent), entry), { force: true });
  }
  return reaped;
}
