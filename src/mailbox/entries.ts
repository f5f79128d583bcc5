import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, type Stats } from 'node:fs';
import { sep } from 'node:path';
import { Envelope, MAX_MESSAGE_BYTES } from '../protocol/messages.js';
import { isMissing } from '../files/errno.js';
import { describeIssues } from '../lib/zod-issues.js';

/** A message file is named after its id, so sorting names sorts messages by send time. */
const MESSAGE_FILE = /^([0-9a-hjkmnp-tv-z]{20})\.json$/;

/**
 * Who sent a message file: the last 6 characters of an id are fixed per sending process
 * (see newMessageId). Other names are their own group.
 */
function senderOf(name: string): string {
  const match = MESSAGE_FILE.exec(name);
  return match?.[1] === undefined ? name : match[1].slice(14);
}

function readNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

/**
 * The entries of new/ to consume next, oldest first, such that no sender's message is
 * taken before an earlier one of the same sender.
 *
 * One readdir is not enough for that: POSIX lets a readdir that runs while entries are
 * renamed in return a later one and miss an earlier one (ext4 lists in hash order, in several
 * getdents calls). Every entry present when a second listing starts is in it, so the first
 * listing is completed from the second with each sender's entries older than its newest in
 * the first: those were renamed in before it, hence before the second listing started.
 */
export function listNew(dir: string): string[] {
  const first = readNames(dir);
  if (first.length === 0) return [];
  const newestBySender = new Map<string, string>();
  for (const name of first) {
    const sender = senderOf(name);
    const newest = newestBySender.get(sender);
    if (newest === undefined || name > newest) newestBySender.set(sender, name);
  }
  const chosen = new Set(first);
  for (const name of readNames(dir)) {
    const newest = newestBySender.get(senderOf(name));
    if (newest !== undefined && name < newest) chosen.add(name);
  }
  return [...chosen].sort();
}

export type EntryRead =
  | { kind: 'message'; envelope: Envelope; bytes: number }
  | { kind: 'problem'; reason: string }
  | { kind: 'vanished' };

/** One buffer for every read: a message is read whole in one call, with one byte to spare to spot an oversized file. */
const readBuffer = Buffer.alloc(MAX_MESSAGE_BYTES + 1);

/** What kind of thing a non-regular entry is, for the reason it is set aside. */
function kindOf(stats: Stats): string {
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  return 'unknown kind';
}

class NotRegular extends Error {
  constructor(readonly kind: string) {
    super(`not a regular file: ${kind}`);
  }
}

/**
 * Opened without following a symlink (a teammate could point one at any file the reader may
 * read) and without blocking (opening a FIFO for reading waits for a writer). Neither flag
 * changes anything for the regular file every real message is.
 */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function openRegular(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    // A symlink fails with ELOOP (EMLINK on some BSDs), a socket with ENXIO: say what it is.
    const stats = isMissing(error) ? undefined : lstatSync(path, { throwIfNoEntry: false });
    if (stats !== undefined && !stats.isFile()) throw new NotRegular(kindOf(stats));
    throw error;
  }
  const stats = fstatSync(fd);
  if (stats.isFile()) return fd;
  closeSync(fd);
  throw new NotRegular(kindOf(stats));
}

/** The file's text, or undefined when it is over the message size limit. */
function readBounded(path: string): string | undefined {
  const fd = openRegular(path);
  try {
    let got = 0;
    for (;;) {
      const n = readSync(fd, readBuffer, got, readBuffer.length - got, got);
      if (n === 0) break;
      got += n;
      if (got === readBuffer.length) return undefined;
    }
    return readBuffer.toString('utf8', 0, got);
  } finally {
    closeSync(fd);
  }
}

/**
 * Read one entry of new/ as a message, or say why it is not one. Never throws for bad content,
 * never blocks, and reads only a regular file that is itself the entry (no symlink followed).
 */
export function readEntry(dir: string, name: string): EntryRead {
  const match = MESSAGE_FILE.exec(name);
  if (match?.[1] === undefined) return { kind: 'problem', reason: `'${name}' is not a message file name (<20-char id>.json)` };
  let text: string | undefined;
  try {
    text = readBounded(`${dir}${sep}${name}`);
  } catch (error) {
    if (isMissing(error)) return { kind: 'vanished' };
    if (error instanceof NotRegular) return { kind: 'problem', reason: error.message };
    return { kind: 'problem', reason: `unreadable: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (text === undefined) return { kind: 'problem', reason: `over the ${MAX_MESSAGE_BYTES}-byte message limit` };
  if (text.length === 0) return { kind: 'problem', reason: 'empty file (torn, or written in place instead of renamed in)' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'problem', reason: 'not valid JSON (torn or corrupt file)' };
  }
  const parsed = Envelope.safeParse(value);
  if (!parsed.success) return { kind: 'problem', reason: `not a valid message: ${describeIssues(parsed.error, 'message')}` };
  if (parsed.data.id !== match[1]) return { kind: 'problem', reason: `file name says id ${match[1]} but the message's id is ${parsed.data.id}` };
  return { kind: 'message', envelope: parsed.data, bytes: text.length };
}
