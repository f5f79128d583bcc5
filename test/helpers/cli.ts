import { join } from 'node:path';
import { spawnNode, DIST, type Child } from './children.js';

/** The bundled command line, as bin/teams.js runs it. */
export const CLI = join(DIST, 'bundle', 'cli', 'main.js');

export type CliResult = { code: number | null; stdout: string; stderr: string };

/** Run `teams <args>` against a state root and wait for it to exit. */
export async function runCli(home: string, args: string[], env: Record<string, string> = {}, cwd?: string): Promise<CliResult> {
  const child = startCli(home, args, env, cwd);
  const { code } = await child.exited;
  return { code, stdout: child.stdout(), stderr: child.stderr() };
}

/** Start a long-running `teams <args>` (e.g. --follow); stop it with SIGINT. */
export function startCli(home: string, args: string[], env: Record<string, string> = {}, cwd?: string): Child {
  const base = { ...process.env };
  // The caller's own TEAMS_* settings must not leak into a test.
  delete base.TEAMS_HOME;
  delete base.TEAMS_TEAM;
  return spawnNode(CLI, ['--home', home, ...args], { env: { ...base, ...env }, ...(cwd ? { cwd } : {}) });
}
