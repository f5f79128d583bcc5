import { lstatSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { isMissing } from '../files/errno.js';

export type MoveAside =
  | { kind: 'moved'; to: string }
  /** The entry was gone before it could be moved: nothing to report. */
  | { kind: 'vanished' }
  /** It could not be moved at all; it is still where it was. */
  | { kind: 'stuck'; error: string };

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Whether anything (a dangling symlink included) is at `path`; throws if that cannot be told (ENOTDIR, EACCES). */
function occupied(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/**
 * bad/<name>, or bad/<name>.1, .2, … if that is taken. A rename onto a taken name would fail
 * (a directory is there) or, worse, silently replace the earlier evidence. The consumer is the
 * only process that adds to bad/, so a name free now is still free at the rename.
 */
function freeName(bad: string, name: string): string {
  for (let n = 0; ; n++) {
    const candidate = join(bad, n === 0 ? name : `${name}.${n}`);
    if (!occupied(candidate)) return candidate;
  }
}

function renameToFreeName(from: string, bad: string, name: string): string {
  const to = freeName(bad, name);
  renameSync(from, to);
  return to;
}

/**
 * Move the entry `from` into the directory `bad` under a free name, never throwing: a bad entry
 * must not stop the drain it is found in (it would be found first again by every later one).
 * A bad/ that a person removed is made again.
 */
export function moveAside(from: string, bad: string, name: string): MoveAside {
  try {
    return { kind: 'moved', to: renameToFreeName(from, bad, name) };
  } catch (error) {
    if (!isMissing(error)) return { kind: 'stuck', error: describe(error) };
  }
  // ENOENT: the entry is gone, or bad/ is.
  try {
    if (!occupied(from)) return { kind: 'vanished' };
    mkdirSync(bad, { recursive: true });
    return { kind: 'moved', to: renameToFreeName(from, bad, name) };
  } catch (error) {
    return { kind: 'stuck', error: describe(error) };
  }
}
