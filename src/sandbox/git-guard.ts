import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import * as z from 'zod';
import { GIT_DIR, GIT_DIR_GUARDED } from '../policy/index.js';
import { linkedWorktreeMounts } from './linked-worktree.js';

/**
 * How the sandbox keeps a writable working directory's git directory from becoming an escape:
 * git runs the hooks and reads the config (`core.hooksPath`, `core.fsmonitor`, aliases…) of
 * `<cwd>/.git` as the human who later runs git there, outside any sandbox.
 *
 * Why not the whole `.git` read-only (as Codex's workspace-write sandbox does): teammates
 * commit. `git add` and `git commit` create `index.lock` and `COMMIT_EDITMSG` in `.git`
 * itself and rename the lock over `index`, so `.git` must stay a writable directory; a
 * read-only `.git` with `objects`, `refs` and `index` bound writable again cannot work (a
 * rename onto a mount point fails). So `.git` stays writable and what git would run or
 * follow is bound read-only over it: `GIT_DIR_GUARDED` (places.ts), when it exists.
 *
 * Every directory from the working directory down to a guarded git directory is bound onto
 * itself as well: a mount point cannot be renamed or removed, while a plain directory that
 * merely contains one can (`mv .git .git-old`, then a `.git` of the command's own).
 *
 * A missing `hooks` gets an empty read-only tmpfs (bubblewrap creates the empty directory,
 * as `git init` would). A missing `commondir` cannot be covered: an empty file there breaks
 * git, so a command can still create `.git/commondir` and move config and hooks elsewhere
 * (see the README's Security section). A git directory reached through a symbolic link
 * or holding one where git looks (a guarded entry, its worktrees or submodules) cannot be
 * guarded entry by entry (a link can be replaced, a mount point cannot), so it is bound
 * read-only whole.
 */
export type GuardMount = { flag: '--bind' | '--ro-bind' | '--tmpfs'; target: string };

// `gitdir: <path>`, the one line of a worktree's or submodule's `.git` file.
const GitPointer = z
  .string()
  .regex(/^gitdir: (.+)\n?$/)
  .transform((text) => text.replace(/^gitdir: /, '').replace(/\n$/, ''));

const lstatOf = (path: string): Stats | undefined => lstatSync(path, { throwIfNoEntry: false });

function within(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/** The directories and links in `dir`; none when it cannot be read (or is not there). */
function entries(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => join(dir, entry.name));
  } catch {
    return [];
  }
}

/**
 * What lies on the way to the git directories kept in `gitdir` (linked worktrees' and
 * submodules', which have hooks and config of their own), and which of them are git directories.
 */
function nestedGitDirs(gitdir: string): { passed: string[]; found: string[] } {
  const worktrees = join(gitdir, 'worktrees');
  const modules = join(gitdir, 'modules');
  const found = entries(worktrees);
  const passed = [worktrees, modules, ...found];
  // A submodule's name may hold slashes: `modules/a/b` is a git directory once it has a HEAD.
  const walk = (dir: string, level: number): void => {
    for (const child of level > 8 ? [] : entries(dir)) {
      passed.push(child);
      if (lstatOf(join(child, 'HEAD'))) found.push(child);
      else walk(child, level + 1);
    }
  };
  walk(modules, 0);
  return { passed, found };
}

function guardGitDir(cwd: string, gitdir: string, mounts: Map<string, GuardMount['flag']>): void {
  const nested = nestedGitDirs(gitdir);
  const linked = [...GIT_DIR_GUARDED.map((name) => join(gitdir, name)), ...nested.passed].some((path) => lstatOf(path)?.isSymbolicLink());
  const realGitDir = realpathSync(gitdir);
  if (linked || realGitDir !== resolve(gitdir)) {
    if (within(realGitDir, cwd)) mounts.set(realGitDir, '--ro-bind');
    return;
  }
  for (let dir = gitdir; within(dir, cwd); dir = dirname(dir)) if (!mounts.has(dir)) mounts.set(dir, '--bind');
  for (const name of GIT_DIR_GUARDED) {
    const path = join(gitdir, name);
    if (lstatOf(path)) mounts.set(path, '--ro-bind');
    // A linked worktree's git directory has a commondir; its hooks are the common directory's.
    else if (name === 'hooks' && !lstatOf(join(gitdir, 'commondir'))) mounts.set(path, '--tmpfs');
  }
  for (const dir of nested.found) guardGitDir(cwd, dir, mounts);
}

/**
 * The mounts that guard the git directory of a writable working directory `cwd`, outermost
 * first, on real paths (bubblewrap mounts where links lead); none when it has no `.git`. A
 * `.git` file (a worktree's or submodule's pointer) is bound read-only so it cannot be
 * repointed; the directory it names is guarded when it lies inside `cwd` (outside, it is
 * read-only like the rest of the system, but for what a commit in a linked worktree writes).
 * Read at each command: a `.git` may appear meanwhile.
 */
export function gitGuard(cwd: string): GuardMount[] {
  const mounts = new Map<string, GuardMount['flag']>();
  let dotGit: string | undefined;
  try {
    const root = realpathSync(cwd);
    dotGit = join(root, GIT_DIR);
    const stat = lstatOf(dotGit);
    if (stat?.isDirectory()) guardGitDir(root, dotGit, mounts);
    else if (stat?.isSymbolicLink()) {
      // The link itself can be replaced; what it leads to is at least read-only.
      const target = realpathSync(dotGit);
      if (within(target, root)) mounts.set(target, '--ro-bind');
    } else if (stat?.isFile()) {
      mounts.set(dotGit, '--ro-bind');
      const pointer = GitPointer.safeParse(readFileSync(dotGit, 'utf8'));
      const gitdir = pointer.success ? resolve(root, pointer.data) : undefined;
      if (gitdir !== undefined && within(gitdir, root) && lstatOf(gitdir)?.isDirectory()) guardGitDir(root, gitdir, mounts);
      // A linked worktree's git directory elsewhere: writable enough to commit (linked-worktree.ts).
      else if (gitdir !== undefined) for (const mount of linkedWorktreeMounts(gitdir)) mounts.set(mount.target, mount.flag);
    }
  } catch {
    // Changed while being read (or unreadable): the whole of it read-only is the safe answer.
    mounts.clear();
    if (dotGit !== undefined && existsSync(dotGit)) mounts.set(dotGit, '--ro-bind');
  }
  return [...mounts].map(([target, flag]) => ({ flag, target }));
}
