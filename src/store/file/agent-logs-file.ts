import { closeSync, fstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { isMissing, lookOnChange, watchAppendsForHints } from '../../lib/index.js';
import { AgentName } from '../../protocol/index.js';
import { lineBreakProblem, parseLogLine, tailProblem } from '../agent-log.js';
import type { AgentLogs, LogBatch, LogReadOptions, Subscription } from '../team-store.js';
import { AppendOnlyFile } from './append-file.js';
import { fileLayout, type FileLocation } from './layout.js';
import { cursorAt, offsetOf, startOfLastLines } from './log-position.js';

/** Read at most this much per batch: a reader of a long log catches up a batch at a time. */
const MAX_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Teammates' logs as the files their supervisor points their output at: logs/<agent>.log.
 * Reading takes complete lines from a byte offset; a line still being written is left for the
 * next read, so a reader never sees half an event. `append` writes to the same file, so a log
 * carried by `append` and one written by the teammate's own output read the same.
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

  async append(agent: string, lines: readonly string[]): Promise<void> {
    const path = this.pathOf(agent);
    const broken = lineBreakProblem(agent, lines);
    if (broken) throw new Error(broken);
    if (lines.length === 0) return;
    mkdirSync(this.dir, { recursive: true });
    // One write(2) with O_APPEND: the batch lands whole, after whatever any other writer put there.
    const file = new AppendOnlyFile(path);
    try {
      file.append(Buffer.from(`${lines.join('\n')}\n`));
    } finally {
      file.close();
    }
  }

  async read(agent: string, options: LogReadOptions = {}): Promise<LogBatch> {
    return this.readFrom(this.pathOf(agent), options);
  }

  async follow(agent: string, listener: (batch: LogBatch) => void, options: LogReadOptions = {}): Promise<Subscription> {
    const path = this.pathOf(agent);
    // Checked before the watch starts, so a bad cursor or tail is the caller's error, not a watch's.
    checkOptions(options);
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
        const moved = batch.next !== cursor;
        cursor = batch.next;
        // The first batch is given even when empty: the caller learns where the log stands.
        if (first || batch.lines.length > 0) listener(batch);
        first = false;
        if (!moved || batch.lines.length === 0) return;
      }
    }, watchLog);
  }

  private readFrom(path: string, options: LogReadOptions): LogBatch {
    const { from, tail } = checkOptions(options);
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (error) {
      if (isMissing(error)) return { lines: [], next: cursorAt(from ?? 0), skipped: false };
      throw error;
    }
    try {
      const size = fstatSync(fd).size;
      let start = from ?? 0;
      let skipped = false;
      if (from === undefined && tail !== undefined) ({ start, skipped } = startOfLastLines(fd, size, tail));
      // A log that shrank was replaced: read it again from its start.
      if (start > size) start = 0;
      const length = Math.min(size - start, MAX_BATCH_BYTES);
      const buffer = Buffer.alloc(length);
      const got = readSync(fd, buffer, 0, length, start);
      const end = buffer.subarray(0, got).lastIndexOf(0x0a);
      if (end < 0 && got === MAX_BATCH_BYTES) {
        // No line ends in a whole batch: not an event, and waiting would stall every reader.
        return { lines: [{ type: 'raw', text: `(${got} bytes without a line break, left out)` }], next: cursorAt(start + got), skipped };
      }
      if (end < 0) return { lines: [], next: cursorAt(start), skipped };
      const lines = buffer
        .subarray(0, end)
        .toString('utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map(parseLogLine);
      return { lines, next: cursorAt(start + end + 1), skipped };
    } finally {
      closeSync(fd);
    }
  }
}

/** The options as the file store reads them: the cursor as a byte offset; a bad one is an error. */
function checkOptions({ from, tail }: LogReadOptions): { from?: number; tail?: number } {
  const problem = tail === undefined ? undefined : tailProblem(tail);
  if (problem) throw new Error(problem);
  return { from: from === undefined ? undefined : offsetOf(from), tail };
}
