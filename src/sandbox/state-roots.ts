import { readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { readStateRootRegistry } from '../store/index.js';
import { controlSocketPath } from '../team/index.js';

/**
 * Every team state root a command in `cwd` could otherwise see, not only its own team's: each
 * holds a team's settings (permission rules, hooks), control token, mailboxes and journals, and
 * a teammate of one team has no business with another's. A project nested in this one, one
 * around it, or one next to it (with --home anywhere) each keep their own. Found three ways:
 * the per-user registry every lead adds its root to (state-root-registry.ts), a `.teams` in
 * any directory above `cwd`, and a `.teams` below it within a few levels (a project not yet
 * registered, say one cloned with its state). With each root go the control socket
 * directories its teams have outside it (a deep root's socket lives under the temp dir).
 */

/** The default state root's name (--home's default, ./.teams). */
const STATE_ROOT_NAME = '.teams';
/** How deep below `cwd` a `.teams` is looked for: cwd/a/b/c/.teams at most. */
const WALK_DEPTH = 4;
/** Never a project's own state roots, and too big to walk for each command. */
const NOT_WALKED = new Set(['node_modules', '.git']);

export type StateRoots = {
  /** The state roots found, each once. */
  roots: string[];
  /** What to hide: the roots and their teams' control socket directories outside them. */
  dirs: string[];
};

function within(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith('../') && !isAbsolute(rel));
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    // Gone, a file on the way (ENOTDIR), unreadable: no root there that must break a command.
    return false;
  }
}

function subdirectories(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    // Unreadable or gone since: nothing found there, and nothing a command could read there either.
    return [];
  }
}

/** `.teams` directories in `dir` and below it, to `depth` levels; `skip` are not entered. */
function rootsBelow(dir: string, depth: number, skip: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const name of subdirectories(dir)) {
    const path = join(dir, name);
    if (name === STATE_ROOT_NAME) found.push(path);
    else if (depth > 1 && !NOT_WALKED.has(name) && !skip.has(path)) found.push(...rootsBelow(path, depth - 1, skip));
  }
  return found;
}

function rootsAbove(cwd: string): string[] {
  const found: string[] = [];
  for (let dir = dirname(cwd); ; dir = dirname(dir)) {
    const candidate = join(dir, STATE_ROOT_NAME);
    if (isDirectory(candidate)) found.push(candidate);
    if (dirname(dir) === dir) return found;
  }
}

/** The control socket directories of `root`'s teams that lie outside it and exist. */
function socketDirectories(root: string): string[] {
  return subdirectories(root)
    .map((team) => ({ team: join(root, team), socketDir: dirname(controlSocketPath(join(root, team))) }))
    .filter(({ team, socketDir }) => socketDir !== team && isDirectory(socketDir))
    .map(({ socketDir }) => socketDir);
}

/**
 * The state roots around `cwd` (see above). `skip`: directories hidden already, not walked.
 * Never throws: a registry that is missing or garbled only means fewer roots found (doctor says).
 */
export function stateRootsAround(cwd: string, skip: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): StateRoots {
  const absolute = resolve(cwd);
  const registered = readStateRootRegistry(env).roots.filter(isDirectory);
  const above = rootsAbove(absolute);
  // A working directory inside a state root (the offline workspace, a teammate's worktree)
  // sees the project around that root: walked as well, for the roots nested in it.
  const projects = [absolute, ...above.filter((root) => within(absolute, root)).map(dirname)];
  const skipped = new Set(skip);
  const below = projects.flatMap((dir) => rootsBelow(dir, WALK_DEPTH, skipped));
  const roots = [...new Set([...registered, ...above, ...below])];
  const dirs = [...new Set([...roots, ...roots.flatMap(socketDirectories)])];
  return { roots, dirs };
}

/**
 * `own` (the team's own hidden directories) and every other state root around `cwd`, each once.
 * A working directory inside a state root stays the command's own (bwrap-args.ts, confine.ts);
 * one that is a state root itself (--home pointing at a project) too: bubblewrap would mount
 * the cover over it, as neither path lies inside the other.
 */
export function hiddenStateAround(cwd: string, own: readonly string[], env: NodeJS.ProcessEnv = process.env): string[] {
  const absolute = resolve(cwd);
  const others = stateRootsAround(absolute, own, env).dirs.filter((dir) => dir !== absolute);
  return [...new Set([...own, ...others])];
}
