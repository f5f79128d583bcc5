import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as z from 'zod';
import { GIT_DIR_GUARDED } from '../policy/index.js';

/**
 * A working directory that is a linked worktree (a teammate's, `git worktree add`) keeps its git
 * directory elsewhere: `<common>/worktrees/<name>`, beside the repository's own objects and refs.
 * Outside the working directory that is read-only in the sandbox, and `git commit` fails. What
 * a commit writes is bound writable again: the worktree's git directory (HEAD, index, its logs)
 * and the common directory's objects. What git would run or follow stays read-only over it: the
 * worktree's `commondir`, `gitdir` and `config.worktree`, and the common directory's config,
 * hooks and info are never bound writable at all.
 *
 * The common directory's refs, packed-refs and logs stay read-only too: they are every branch's
 * and tag's, the lead's `main` included. A teammate's worktree works on a detached HEAD, kept in
 * its own git directory, and the harness moves its branch there (team/worktree-head.ts). What a
 * hostile command can still do is add objects: any number, of any content (the disk is the
 * limit), none of which any ref names until the harness moves the teammate's own branch.
 */

/** What git reads from a linked worktree's own git directory to find config or run anything. */
const WORKTREE_GUARDED = [...GIT_DIR_GUARDED, 'gitdir'] as const;

/** What a commit writes in the common directory. */
const COMMON_WRITTEN = ['objects'] as const;

/**
 * What git reads there, bound read-only: the worktree may lie where the sandbox shows nothing
 * of the common directory (a private /tmp), and git takes a directory without `refs` for no
 * repository at all. The config is the human's (the object format, the worktreeConfig
 * extension); hooks are left out, unseen.
 */
const COMMON_READ = ['refs', 'packed-refs', 'logs', 'config', 'info', 'shallow'] as const;

const OneLine = z
  .string()
  .regex(/^[^\n]+\n?$/, 'one line')
  .transform((text) => text.replace(/\n$/, ''));

// The shape of git-guard.ts's GuardMount (not imported: git-guard.ts imports this file).
type GuardMount = { flag: '--bind' | '--ro-bind'; target: string };

const lstatOf = (path: string) => lstatSync(path, { throwIfNoEntry: false });

/**
 * The mounts that let commands commit in a linked worktree whose git directory is `gitdir`
 * (absolute, outside the working directory); none, leaving it all read-only, when it is not
 * one or any part of it is a symbolic link (a link can be swapped, a mount point cannot).
 */
export function linkedWorktreeMounts(gitdir: string): GuardMount[] {
  try {
    if (realpathSync(gitdir) !== resolve(gitdir)) return [];
    const commondirFile = join(gitdir, 'commondir');
    if (!lstatOf(commondirFile)?.isFile()) return [];
    const pointer = OneLine.safeParse(readFileSync(commondirFile, 'utf8'));
    if (!pointer.success) return [];
    const common = resolve(gitdir, pointer.data);
    if (realpathSync(common) !== common) return [];
    const written = COMMON_WRITTEN.map((name) => join(common, name)).filter((path) => lstatOf(path)?.isDirectory());
    const read = COMMON_READ.map((name) => join(common, name)).filter((path) => lstatOf(path) !== undefined);
    const guarded = WORKTREE_GUARDED.map((name) => join(gitdir, name)).filter((path) => lstatOf(path) !== undefined);
    // A guarded entry that is a link, or a written directory that is one, leads where the binds cannot follow safely.
    if ([...written, ...read, ...guarded].some((path) => lstatOf(path)?.isSymbolicLink())) return [];
    // config.worktree must exist to be covered (the harness creates it empty with the worktree).
    if (!guarded.includes(join(gitdir, 'config.worktree'))) return [];
    return [
      ...written.map((target): GuardMount => ({ flag: '--bind', target })),
      ...read.map((target): GuardMount => ({ flag: '--ro-bind', target })),
      { flag: '--bind', target: gitdir },
      ...guarded.map((target): GuardMount => ({ flag: '--ro-bind', target })),
    ];
  } catch {
    // Changed while being read, or unreadable: it stays read-only.
    return [];
  }
}
