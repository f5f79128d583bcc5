import { mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import * as z from 'zod';
import { writeFileAtomic, withFileLock } from '../lib/index.js';
import { appendLines, readLines, type LineProblem } from './file/jsonl.js';

/**
 * Every team state root this user has used on this machine, one JSON line each. The sandbox
 * hides all of them from every command, not only the current team's: a project next to this
 * one (or around it) keeps its settings, control token and mailboxes in its own root, which a
 * teammate here must not read either. The file lives outside any working directory, under the
 * user's state directory: commands cannot write it (the sandbox is read-only outside the
 * working directory), the file tools cannot reach it (they stay inside it).
 */
const RegisteredRoot = z.object({ root: z.string().refine(isAbsolute, 'must be an absolute path') });

/** TEAMS_REGISTRY (for tests), else $XDG_STATE_HOME/teams/roots, else ~/.local/state/teams/roots. */
export function stateRootRegistryPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TEAMS_REGISTRY) return resolve(env.TEAMS_REGISTRY);
  const stateHome = env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(stateHome, 'teams', 'roots');
}

export type RegisteredRoots = { path: string; roots: string[]; problems: LineProblem[] };

/** The roots registered so far, each once; lines that are torn or not roots are skipped and reported. */
export function readStateRootRegistry(env: NodeJS.ProcessEnv = process.env): RegisteredRoots {
  const path = stateRootRegistryPath(env);
  try {
    const { records, problems } = readLines(path, RegisteredRoot);
    return { path, roots: [...new Set(records.map((record) => record.root))], problems };
  } catch (error) {
    // Unreadable (a directory, no permission): nothing registered can be hidden, which doctor says.
    return { path, roots: [], problems: [{ line: 0, offset: 0, reason: `cannot be read: ${String(error)}` }] };
  }
}

function stillThere(root: string): boolean {
  try {
    return statSync(root).isDirectory();
  } catch {
    // Gone, or a file on the way (ENOTDIR): dropped.
    return false;
  }
}

/**
 * Add `root` (made absolute) unless it is there already. Under the registry's file lock, as
 * leads may start at once: the roots that are gone (a test's temporary project, a deleted
 * one) are dropped then, or the file would grow with every project ever made, and be read
 * for every command; otherwise the root is appended. Returns why it failed, if it did.
 */
export function registerStateRoot(root: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const absolute = resolve(root);
  const path = stateRootRegistryPath(env);
  if (readStateRootRegistry(env).roots.includes(absolute)) return undefined;
  try {
    mkdirSync(dirname(path), { recursive: true });
    withFileLock(`${path}.lock`, () => {
      const { roots, problems } = readStateRootRegistry(env);
      if (roots.includes(absolute)) return;
      const kept = roots.filter(stillThere);
      if (kept.length === roots.length && problems.length === 0) appendLines(path, [{ root: absolute }]);
      else writeFileAtomic(path, [...kept, absolute].map((known) => `${JSON.stringify({ root: known })}\n`).join(''));
    });
    return undefined;
  } catch (error) {
    return `the state root ${absolute} was not added to ${path}: ${String(error)}`;
  }
}
