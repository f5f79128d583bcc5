import { readSync } from 'node:fs';
import { MAX_MESSAGE_BYTES } from '../../../protocol/index.js';

/**
 * Reading a log: complete lines only, in bounded memory whatever the log holds. A line's
 * `offset` is where it starts and `next` where the line after it starts, so that a reader
 * can record exactly how far it has taken a log.
 */
export type MailboxLogLine =
  /** Its bytes without the newline: a view of the chunk it was read in, valid as long as it is kept. */
  | { kind: 'line'; offset: number; next: number; bytes: Buffer }
  /** Not a message whatever it says: kept as evidence (at most MAX_MESSAGE_BYTES of it) with the reason. */
  | { kind: 'bad'; offset: number; next: number; evidence: Buffer; reason: string };

/** Bytes read per call: many lines at once, and always room for one whole line of the largest size. */
const CHUNK_BYTES = Math.max(1 << 20, 2 * (MAX_MESSAGE_BYTES + 1));
const NEWLINE = 0x0a;

/** A fresh buffer each time: the lines given out are views of it. */
function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buffer, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return buffer.subarray(0, got);
}

/** Where the first newline at or after `from` (and before `end`) is, reading in chunks; -1 if none. */
function newlineFrom(fd: number, from: number, end: number): number {
  for (let position = from; position < end; ) {
    const chunk = readAt(fd, position, Math.min(CHUNK_BYTES, end - position));
    if (chunk.length === 0) return -1;
    const at = chunk.indexOf(NEWLINE);
    if (at >= 0) return position + at;
    position += chunk.length;
  }
  return -1;
}

const evidenceOf = (chunk: Buffer, start: number, bytes: number) => Buffer.from(chunk.subarray(start, start + Math.min(bytes, MAX_MESSAGE_BYTES)));

const oversized = (bytes: number) => `over the ${MAX_MESSAGE_BYTES}-byte message limit (${bytes} bytes; the first ${MAX_MESSAGE_BYTES} kept)`;

/**
 * The lines of the log open on `fd` from `from` up to `size`. A partial last line is left for
 * a later read while the log may still grow; once it is `finished` nothing will complete it,
 * so it is given as torn. The caller may stop taking lines at any point.
 */
export function* logLines(fd: number, from: number, size: number, finished: boolean): Generator<MailboxLogLine> {
  let offset = from;
  while (offset < size) {
    const chunk = readAt(fd, offset, Math.min(CHUNK_BYTES, size - offset));
    // Shorter than its size said: cut by someone else; what is there is all there is.
    const end = offset + chunk.length;
    let start = 0;
    for (let at = chunk.indexOf(NEWLINE); at >= 0; at = chunk.indexOf(NEWLINE, start)) {
      const bytes = at - start;
      const line = { offset: offset + start, next: offset + at + 1 };
      if (bytes > MAX_MESSAGE_BYTES) yield { kind: 'bad', ...line, evidence: evidenceOf(chunk, start, bytes), reason: oversized(bytes) };
      else yield { kind: 'line', ...line, bytes: chunk.subarray(start, at) };
      start = at + 1;
    }
    if (start > 0) {
      // The rest of the chunk begins a line: read it again from its start, with what follows.
      offset += start;
      continue;
    }
    // No newline in a whole chunk: a line longer than the limit, or the log's partial last line.
    const lineEnd = chunk.length > MAX_MESSAGE_BYTES ? newlineFrom(fd, end, size) : -1;
    if (lineEnd >= 0) {
      yield { kind: 'bad', offset, next: lineEnd + 1, evidence: evidenceOf(chunk, 0, lineEnd - offset), reason: oversized(lineEnd - offset) };
      offset = lineEnd + 1;
      continue;
    }
    if (finished) {
      const bytes = size - offset;
      yield { kind: 'bad', offset, next: size, evidence: evidenceOf(chunk, 0, bytes), reason: `torn: a last line of ${bytes} bytes that its writer never finished` };
    }
    return;
  }
}
