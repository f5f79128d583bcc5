import { closeSync, fstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { lookOnChange, watchAppendsForHints } from '../../lib/index.js';
import { AgentName } from '../../protocol/index.js';
import { parseLogLine } from '../agent-log.js';
import type { AgentLogs, LogBatch, LogCursor, Subscription } from '../team-store.js';
import { fileLayout, type FileLocation } from './layout.js';

/** Read at most this much per batch: a reader of a long log catches up a batch at a time. */
const MAX_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Teammates' logs as the files their supervisor points their output at: logs/<agent>.log.
 * Reading takes complete lines from a byte offset; a line still being written is left for the
 * next read, so a reader never sees half an event.
 */
export class FileAgentLogs implements AgentLogs {
  private readonly dir: string;

  constructor(location: FileLocation) {
    this.dir = fileLayout(location.root).agentLogs;
  }

  private pathOf(agent: string): string {
    // The name becomes a file name: nothing but a valid agent name may.
    return join(this.dir, `${AgentName.parse(agent)}.log`);
  }

  async read(agent: string, options: { from?: LogCursor; tail?: number } = {}): Promise<LogBatch> {
    return this.readFrom(this.pathOf(agent), options);
  }

  async follow(agent: string, listener: (batch: LogBatch) => void, options: { from?: LogCursor; tail?: number } = {}): Promise<Subscription> {
    const path = this.pathOf(agent);
    // The log is watched as itself, so it must exist: a teammate not yet started has an empty one
    // (its supervisor appends to the same file).
    mkdirSync(this.dir, { recursive: true });
    closeSync(openSync(path, 'a'));
    let cursor = options.from;
    let first = true;
    const watchLog = (_paths: readonly string[], onHint: () => void) => watchAppendsForHints(path, onHint);
    return lookOnChange([path], () => {
      for (;;) {
        const batch = this.readFrom(path, { from: cursor, tail: first ? options.tail : undefined });
        const moved = batch.next.position !== cursor?.position;
        cursor = batch.next;
        // The first batch is given even when empty: the caller learns where the log stands.
        if (first || batch.lines.length > 0) listener(batch);
        first = false;
        if (!moved || batch.lines.length === 0) return;
      }
    }, watchLog);
  }

  private readFrom(path: string, { from, tail }: { from?: LogCursor; tail?: number }): LogBatch {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], next: from ?? { position: 0 }, skipped: false };
      throw error;
    }
    try {
      const size = fstatSync(fd).size;
      let start = from?.position ?? 0;
      let skipped = false;
      if (from === undefined && tail !== undefined && size > tail) {
        start = startOfLineAfter(fd, size - tail);
        skipped = true;
      }
      // A log that shrank was replaced: read it again from its start.
      if (start > size) start = 0;
      const length = Math.min(size - start, MAX_BATCH_BYTES);
      const buffer = Buffer.alloc(length);
      const got = readSync(fd, buffer, 0, length, start);
      const end = buffer.subarray(0, got).lastIndexOf(0x0a);
      if (end < 0 && got === MAX_BATCH_BYTES) {
        // No line ends in a whole batch: not an event, and waiting would stall every reader.
        return { lines: [{ type: 'raw', text: `(${got} bytes without a line break, left out)` }], next: { position: start + got }, skipped };
      }
      if (end < 0) return { lines: [], next: { position: start }, skipped };
      const lines = buffer
        .subarray(0, end)
        .toString('utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map(parseLogLine);
      return { lines, next: { position: start + end + 1 }, skipped };
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * The start of the first line that begins at or after `offset` (the end of the file if none):
 * just past the first newline from the byte before it, so a line that begins right at `offset`
 * is kept.
 */
function startOfLineAfter(fd: number, offset: number): number {
  const chunk = Buffer.alloc(64 * 1024);
  for (let at = Math.max(0, offset - 1); ; at += chunk.length) {
    const got = readSync(fd, chunk, 0, chunk.length, at);
    if (got === 0) return at;
    const newline = chunk.subarray(0, got).indexOf(0x0a);
    if (newline >= 0) return at + newline + 1;
  }
}
