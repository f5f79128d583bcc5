import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The cgroups this process makes for its commands: one parent per process
 * (`<root>/teams/<pid>`, or `<root>/teams-<pid>` under a delegated cgroup v2 subtree), one
 * child per command. A child is removed once its command has ended; the parent, and any
 * child still emptying, when this process exits; what a process that died left behind, by
 * the next one's sweep at its start.
 */

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => join(dir, entry.name));
  } catch {
    return [];
  }
}

/** rmdir, true when it is gone; a cgroup with processes in it cannot be removed yet (EBUSY). */
export function removeCgroup(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** SIGKILL whatever is still in `dir`: a command's leftovers, after its shell has ended. */
export function killCgroup(dir: string): void {
  let text = '';
  try {
    text = readFileSync(join(dir, 'cgroup.procs'), 'utf8');
  } catch {
    return;
  }
  for (const pid of text.split('\n').filter(Boolean).map(Number)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

/** Remove every `<pid>` directory under `base` whose process is dead, with its children. */
export function sweepStale(base: string, nameOf: (dir: string) => number | undefined): void {
  for (const dir of subdirs(base)) {
    const pid = nameOf(dir);
    if (pid === undefined || alive(pid)) continue;
    for (const child of subdirs(dir)) {
      killCgroup(child);
      removeCgroup(child);
    }
    removeCgroup(dir);
  }
}

/**
 * Remove a parent and its children now, synchronously: this process is exiting. A command
 * that ended just before may still have a task dying in its cgroup (the sandbox's init,
 * reaped a moment after bubblewrap): killed, and waited for, up to `waitMs`.
 */
export function removeTree(dir: string, waitMs = 2_000): void {
  const deadline = Date.now() + waitMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let left = subdirs(dir).filter((child) => !removeCgroup(child));
  while (left.length > 0 && Date.now() < deadline) {
    for (const child of left) killCgroup(child);
    Atomics.wait(pause, 0, 0, 10);
    left = left.filter((child) => !removeCgroup(child));
  }
  removeCgroup(dir);
}

/** Whether `dir` exists and we may make cgroups in it. */
export function writableDir(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return existsSync(join(dir, 'cgroup.procs'));
  } catch {
    return false;
  }
}

export function makeCgroup(dir: string, settings: readonly (readonly [file: string, value: string])[]): void {
  mkdirSync(dir, { recursive: true });
  for (const [file, value] of settings) {
    const path = join(dir, file);
    // memsw / swap files exist only where the kernel accounts swap: without them, nothing to cap.
    if (file.includes('sw') && !existsSync(path)) continue;
    writeFileSync(path, value);
  }
}
