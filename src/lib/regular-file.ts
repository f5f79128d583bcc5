import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { errnoCode } from './errno.js';

/** A file's text as read, or why it was not read. `missing`: nothing there, which callers usually pass over. */
export type RegularFileRead =
  | { ok: true; text: string; truncated: boolean }
  | { ok: false; missing: boolean; reason: string };

/**
 * The first `maxBytes` of a regular file, opened without following a link. For files the lead
 * (or the CLI) reads outside any sandbox from a place a teammate could write: a symlink there
 * must not make it read, and hand on, a file the teammate could not see; a FIFO must not block
 * it (O_NONBLOCK) and a huge file must not fill its memory.
 */
export function readRegularFile(path: string, maxBytes: number): RegularFileRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') return { ok: false, missing: true, reason: 'no such file' };
    // O_NOFOLLOW on a symlink fails with ELOOP.
    if (code === 'ELOOP') return { ok: false, missing: false, reason: 'is a symbolic link, which is not followed' };
    return { ok: false, missing: false, reason: `cannot be opened (${code ?? 'unknown error'})` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, missing: false, reason: 'is not a regular file' };
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return { ok: true, text: buffer.subarray(0, read).toString('utf8'), truncated: stat.size > maxBytes };
  } finally {
    closeSync(fd);
  }
}
