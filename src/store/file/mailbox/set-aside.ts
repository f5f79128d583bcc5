import { closeSync, lstatSync, mkdirSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errnoCode, isMissing, errorMessage } from '../../../lib/index.js';
import { openEntry } from './open-entry.js';

export type MoveAside =
  | { kind: 'moved'; to: string }
  /** The entry was gone before it could be moved: nothing to report. */
  | { kind: 'vanished' }
  /** It could not be moved at all; it is still where it was. */
  | { kind: 'stuck'; error: string };

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
 * Put something into `bad` with `put`, never throwing: a bad entry must not stop the drain it is
 * found in (it would be found first again by every later one). ENOENT may mean that a person
 * removed bad/: unless `gone` says the thing itself has vanished, bad/ is made again and `put`
 * tried once more.
 */
function intoBad<T>(bad: string, put: () => T, gone: () => boolean): { ok: true; value: T } | { ok: false; vanished: boolean; error: string } {
  try {
    return { ok: true, value: put() };
  } catch (error) {
    if (!isMissing(error)) return { ok: false, vanished: false, error: errorMessage(error) };
  }
  try {
    if (gone()) return { ok: false, vanished: true, error: '' };
    mkdirSync(bad, { recursive: true });
    return { ok: true, value: put() };
  } catch (error) {
    return { ok: false, vanished: false, error: errorMessage(error) };
  }
}

/** Move the entry `from` into the directory `bad` under a free name, never throwing. */
export function moveAside(from: string, bad: string, name: string): MoveAside {
  const result = intoBad(bad, () => renameToFreeName(from, bad, name), () => !occupied(from));
  if (result.ok) return { kind: 'moved', to: result.value };
  return result.vanished ? { kind: 'vanished' } : { kind: 'stuck', error: result.error };
}

export type KeepAside = { kind: 'kept'; to: string } | { kind: 'failed'; error: string };

/** Whether `path` is a regular file holding exactly `data` (read without following a link, bounded by its size). */
function holds(path: string, data: Buffer): boolean {
  let opened: ReturnType<typeof openEntry>;
  try {
    opened = openEntry(path);
  } catch {
    return false;
  }
  try {
    if (opened.stats.size !== data.length) return false;
    const content = Buffer.alloc(data.length);
    return readSync(opened.fd, content, 0, data.length, 0) === data.length && content.equals(data);
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * bad/<name> holding `evidence`: created exclusively (never through a symlink, never over
 * anything), or found there already, kept by a consumer killed before it could record having
 * done so; if something else has the name, under a free name as moveAside does.
 */
function keep(bad: string, name: string, evidence: Buffer): string {
  const to = join(bad, name);
  try {
    writeFileSync(to, evidence, { flag: 'wx' });
    return to;
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
  }
  if (holds(to, evidence)) return to;
  const free = freeName(bad, name);
  writeFileSync(free, evidence, { flag: 'wx' });
  return free;
}

/**
 * Keep a copy of a log's line in the directory `bad`, never throwing. Its name is the line's
 * own (<log>.<offset>), so a line set aside again after a crash is kept once. A bad/ that a
 * person removed is made again.
 */
export function keepAside(bad: string, name: string, evidence: Buffer): KeepAside {
  // A copy has nothing of its own to vanish: only bad/ can be gone.
  const result = intoBad(bad, () => keep(bad, name, evidence), () => false);
  return result.ok ? { kind: 'kept', to: result.value } : { kind: 'failed', error: result.error };
}
