import { closeSync, readSync } from 'node:fs';
import { sep } from 'node:path';
import { MAX_MESSAGE_BYTES, type Envelope } from '../../../protocol/index.js';
import { isMissing, errorMessage } from '../../../lib/index.js';
import { namesIn } from '../names-in.js';
import { parseEnvelope } from './envelope-text.js';
import { NotRegular, openEntry } from './open-entry.js';

// The Maildir an older version left (tmp/ → new/, a file per message): read only to take
// what it still holds (legacy.ts) and to show it (peek.ts).

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
  const first = namesIn(dir);
  if (first.length === 0) return [];
  const newestBySender = new Map<string, string>();
  for (const name of first) {
    const sender = senderOf(name);
    const newest = newestBySender.get(sender);
    if (newest === undefined || name > newest) newestBySender.set(sender, name);
  }
  const chosen = new Set(first);
  for (const name of namesIn(dir)) {
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

/** The file's text, or undefined when it is over the message size limit. */
function readBounded(path: string): string | undefined {
  const { fd } = openEntry(path);
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
 * Read one entry of an older version's new/ as a message, or say why it is not one. Never
 * throws for bad content, never blocks, and reads only a regular file that is itself the
 * entry (no symlink followed).
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
    return { kind: 'problem', reason: `unreadable: ${errorMessage(error)}` };
  }
  if (text === undefined) return { kind: 'problem', reason: `over the ${MAX_MESSAGE_BYTES}-byte message limit` };
  if (text.length === 0) return { kind: 'problem', reason: 'empty file (torn, or written in place instead of renamed in)' };
  const parsed = parseEnvelope(text);
  if (parsed.kind === 'problem') return parsed;
  if (parsed.envelope.id !== match[1]) return { kind: 'problem', reason: `file name says id ${match[1]} but the message's id is ${parsed.envelope.id}` };
  return { kind: 'message', envelope: parsed.envelope, bytes: text.length };
}
