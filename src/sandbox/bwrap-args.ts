import { isAbsolute, sep } from 'node:path';
import type { GuardMount } from './git-guard.js';
import type { SandboxNetwork } from './settings.js';

/** What one sandboxed command may see and touch. */
export type SandboxView = {
  /** The working directory: writable unless `writable` is false. */
  cwd: string;
  /** False in plan mode and before a plan is approved: the working directory is read-only too. */
  writable: boolean;
  /** Directories that must not be visible at all (the team's state, the lead's socket). */
  hidden: readonly string[];
  /** Files that must not be readable (credentials.ts): each covered by /dev/null. */
  hiddenFiles?: readonly string[];
  network: SandboxNetwork;
  /**
   * Mounts over the writable working directory that keep its git directory from running
   * anything outside the sandbox (git-guard.ts); a `--tmpfs` here is an empty read-only one.
   */
  guarded: readonly GuardMount[];
  /** The private /tmp's size: past it, a write fails with ENOSPC instead of filling the machine's memory. */
  tmpBytes?: number;
};

// The working directory and the hidden ones are mounted the way the git guard's mounts are.
type Mount = GuardMount;

function depth(path: string): number {
  return path.split(sep).filter(Boolean).length;
}

/**
 * The bubblewrap arguments that run `/bin/sh -c command` in `view`. The whole file system is
 * read-only, /tmp is private, the working directory is bound over it and the hidden
 * directories are covered by empty read-only tmpfs mounts. Last come the mounts that guard the
 * working directory's git directory (git-guard.ts).
 *
 * Mounts apply in order, so they go from the root down: whichever of the working directory
 * and a hidden directory lies inside the other is mounted second. The offline workspace
 * lives inside the state root; the default state root lives inside the working directory.
 * Both ways the state stays covered and the working directory stays reachable.
 */
export function bwrapArgs(view: SandboxView, command: string): string[] {
  for (const path of [view.cwd, ...view.hidden, ...(view.hiddenFiles ?? []), ...view.guarded.map((mount) => mount.target)]) {
    if (!isAbsolute(path)) throw new Error(`sandbox paths must be absolute: '${path}'`);
  }
  // A working directory that is itself a hidden one (a state root an agent works in) stays its
  // own: covered, it would be empty, and remounted read-only, unwritable whatever the grant.
  const hidden = view.hidden.filter((dir) => dir !== view.cwd);
  const layered: Mount[] = [
    { flag: view.writable ? '--bind' : '--ro-bind', target: view.cwd } satisfies Mount,
    ...hidden.map((target): Mount => ({ flag: '--tmpfs', target })),
  ].sort((a, b) => depth(a.target) - depth(b.target));
  // After every other mount, whatever the depths: they lie inside the working directory, whose
  // real path (theirs) may be shallower than the path it was given by.
  // A read-only working directory needs no guard, and its writable self-binds would undo that.
  const guarded = (view.writable ? [...view.guarded] : []).sort((a, b) => depth(a.target) - depth(b.target));
  const mount = (m: Mount): string[] => (m.flag === '--tmpfs' ? ['--tmpfs', m.target] : [m.flag, m.target, m.target]);
  return [
    // Nothing the command starts, detached or not, outlives it or the agent that ran it.
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    ...(view.network === 'none' ? ['--unshare-net'] : []),
    // No TIOCSTI into a terminal; as root, no capability to unmount what covers the state.
    '--new-session',
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    ...(view.tmpBytes === undefined ? [] : ['--size', String(view.tmpBytes)]),
    '--tmpfs',
    '/tmp',
    ...layered.flatMap(mount),
    ...guarded.flatMap(mount),
    ...(view.hiddenFiles ?? []).flatMap((file) => ['--ro-bind', '/dev/null', file]),
    // Read-only last: the working directory may need mount points created inside a hidden one.
    ...[...hidden, ...guarded.filter((m) => m.flag === '--tmpfs').map((m) => m.target)].flatMap((target) => ['--remount-ro', target]),
    '--chdir',
    view.cwd,
    '/bin/sh',
    '-c',
    command,
  ];
}
