import { closeSync, fstatSync, linkSync, openSync, readFileSync, readSync, unlinkSync, writeFileSync } from 'node:fs';
import * as z from 'zod';
import { errnoCode } from './errno.js';

/**
 * A small exclusive lock for read-modify-write of shared files (config.json), between
 * processes any of which may be SIGKILLed at any instant. The lock file names its holder's
 * pid; a lock whose holder is gone is broken, so a killed holder never wedges the team.
 * Synchronous: the critical sections it guards take microseconds.
 */

export type FileLockOptions = {
  /** Give up after this long with an error naming the holder. */
  timeoutMs?: number;
};

export const DEFAULT_LOCK_TIMEOUT_MS = 5_000;

const LockHolder = z.object({ pid: z.number().int().positive(), acquired_at: z.string() });

type Holder = { state: 'absent' } | { state: 'held'; pid: number } | { state: 'garbage'; text: string };

/** Locks this process holds: a second acquire of one of them would wait on itself. */
const held = new Set<string>();
let tempCounter = 0;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** A SIGKILLed child stays a zombie until its parent reaps it; kill(pid, 0) still succeeds on it. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false; // no procfs (not Linux) or already gone: kill(pid, 0) decides
  }
}

/** Whether a process with this pid exists (EPERM: it exists but belongs to another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return errnoCode(error) === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * Create `path` holding our pid, or return false if it exists. The content is written to a
 * private temporary file first and hard-linked into place, so the lock never exists
 * without its pid (O_EXCL then write would leave an empty, unbreakable lock if killed between).
 */
function tryCreate(path: string): boolean {
  const temp = `${path}.${process.pid}.${tempCounter++}.tmp`;
  writeFileSync(temp, JSON.stringify({ pid: process.pid, acquired_at: new Date().toISOString() }));
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temp);
  }
}

function readHolder(path: string): Holder {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { state: 'absent' };
    throw error;
  }
  let text: string;
  try {
    const buffer = Buffer.alloc(Math.min(fstatSync(fd).size, 4096));
    text = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { state: 'garbage', text };
  }
  const parsed = LockHolder.safeParse(value);
  return parsed.success ? { state: 'held', pid: parsed.data.pid } : { state: 'garbage', text };
}

/** Content we did not write cannot belong to a live holder: tryCreate never leaves a partial file. */
function isStale(path: string, holder: Holder): boolean {
  if (holder.state === 'absent') return false;
  if (holder.state === 'garbage') return true;
  // Our own pid on a lock we do not hold: a dead process whose pid we were given.
  if (holder.pid === process.pid) return !held.has(path);
  return !isProcessAlive(holder.pid);
}

function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
}

/**
 * Remove a stale lock. Two waiters that both saw the dead holder must not both unlink: the
 * second would delete the lock a third process took in between. So breaking takes a second
 * lock, and re-checks under it: while we hold it, nobody else can remove the stale file (its
 * holder is dead and breakers are excluded), so the file we unlink is the one we judged.
 * A breaker is held for microseconds; one killed inside that window is itself broken the same way.
 */
function breakStale(path: string): void {
  const breaker = `${path}.break`;
  if (!tryCreate(breaker)) {
    if (isStale(breaker, readHolder(breaker))) unlinkIfPresent(breaker);
    return;
  }
  try {
    if (isStale(path, readHolder(path))) unlinkIfPresent(path);
  } finally {
    unlinkIfPresent(breaker);
  }
}

function describe(holder: Holder): string {
  if (holder.state === 'held') return `held by pid ${holder.pid}, which is still running`;
  if (holder.state === 'garbage') return `holding unreadable content ${JSON.stringify(holder.text.slice(0, 60))}`;
  return 'contended';
}

/** Take the lock at `path`, waiting while a live process holds it. Returns the release function. */
export function acquireFileLock(path: string, options: FileLockOptions = {}): () => void {
  if (held.has(path)) throw new Error(`lock ${path} is already held by this process (nested update?)`);
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (tryCreate(path)) break;
    const holder = readHolder(path);
    if (isStale(path, holder)) {
      breakStale(path);
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for lock ${path} (${describe(holder)}); if no teams process is using this team, delete the lock file`,
      );
    }
    // Jitter, so waiters that woke together do not keep colliding.
    Atomics.wait(sleeper, 0, 0, 1 + Math.random() * 3);
  }
  held.add(path);
  return () => {
    held.delete(path);
    const holder = readHolder(path);
    // Never remove a lock that is no longer ours (it was wrongly broken and retaken).
    if (holder.state === 'held' && holder.pid === process.pid) unlinkIfPresent(path);
  };
}

/** Run a synchronous critical section under the lock. `fn` must not be async: the lock is released when it returns. */
export function withFileLock<T>(path: string, fn: () => T, options?: FileLockOptions): T {
  const release = acquireFileLock(path, options);
  try {
    return fn();
  } finally {
    release();
  }
}
