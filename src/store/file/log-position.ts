import { readSync } from 'node:fs';
import { oneLine, quoted } from '../../lib/index.js';
import type { LogCursor } from '../team-store.js';

/**
 * The file store's agent-log cursor: a byte offset in the log, named as the file store's so
 * that a cursor from another store (or a hand-made string) is told apart, not misread.
 */
const CURSOR = /^file-log:(0|[1-9]\d{0,15})$/;

export function cursorAt(offset: number): LogCursor {
  return `file-log:${offset}`;
}

/** The byte offset a cursor names; a cursor this store did not give is an error saying so. */
export function offsetOf(cursor: LogCursor): number {
  const match = typeof cursor === 'string' ? CURSOR.exec(cursor) : null;
  const offset = Number(match?.[1]);
  if (!match || !Number.isSafeInteger(offset)) {
    throw new Error(`not a cursor of the file store's agent logs: ${quoted(oneLine(String(cursor), 80))}`);
  }
  return offset;
}

const CHUNK = 64 * 1024;

/**
 * Where the last `count` complete lines before `size` begin: scanning back from the end, past
 * a trailing line not yet ended, to the line break before the earliest of them. `skipped` is
 * whether an earlier line stays before it. Blank lines count as lines (a reader drops them).
 */
export function startOfLastLines(fd: number, size: number, count: number): { start: number; skipped: boolean } {
  const chunk = Buffer.alloc(CHUNK);
  // Line breaks seen from the end; the first ends the last complete line.
  let breaks = 0;
  for (let end = size; end > 0; ) {
    const at = Math.max(0, end - CHUNK);
    const got = readSync(fd, chunk, 0, end - at, at);
    for (let i = got - 1; i >= 0; i--) {
      if (chunk[i] !== 0x0a) continue;
      breaks++;
      // The break before the earliest wanted line: an earlier line ends here.
      if (breaks === count + 1) return { start: at + i + 1, skipped: true };
    }
    end = at;
  }
  return { start: 0, skipped: false };
}
