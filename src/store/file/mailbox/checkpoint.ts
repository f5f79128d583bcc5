import { closeSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import * as z from 'zod';
import { AppendOnlyFile } from '../append-file.js';
import { writeFileAtomic, isMissing } from '../../../lib/index.js';
import { truncateTornTail } from '../jsonl.js';
import { fsyncPath } from './layout.js';
import { NotRegular, openEntry } from './open-entry.js';

/**
 * How far the consumer has taken each log: the log's inode (a file put in its place is read
 * from its start) and the offset of the first line not yet taken.
 */
export type Position = { ino: number; offset: number };
export type Positions = Map<string, Position>;

/**
 * checkpoint.jsonl: one line per consumed batch, each the whole map {"logs":{name:[inode,
 * offset]}}; the last complete line counts. An append is one write(2) to a file that exists,
 * not a new file per batch (creating files is what is slow on some disks), and a line torn by
 * a kill leaves the one before it in force. Past ROTATE_BYTES the current line is written
 * alone into a fresh file, renamed over this one.
 */
const Record = z.object({ logs: z.record(z.string(), z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])) });

const ROTATE_BYTES = 64 * 1024;
/** Only the end of the file is read: a rotated checkpoint holds one line, a large one is not ours. */
const TAIL_BYTES = 4 << 20;

function readTail(path: string): string {
  let opened: { fd: number; stats: { size: number } };
  try {
    opened = openEntry(path);
  } catch (error) {
    if (isMissing(error) || error instanceof NotRegular) return '';
    throw error;
  }
  const { fd, stats } = opened;
  try {
    const length = Math.min(stats.size, TAIL_BYTES);
    const buffer = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const n = readSync(fd, buffer, got, length - got, stats.size - length + got);
      if (n === 0) break;
      got += n;
    }
    return buffer.toString('utf8', 0, got);
  } finally {
    closeSync(fd);
  }
}

/** The positions of the last complete, valid line; none (every log from its start) without one. */
export function readCheckpoint(path: string): Positions {
  const lines = readTail(path).split('\n');
  // The part after the last newline is a line not yet complete, or torn.
  for (let index = lines.length - 2; index >= 0; index--) {
    const line = lines[index];
    if (line === undefined || line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = Record.safeParse(value);
    if (parsed.success) return new Map(Object.entries(parsed.data.logs).map(([name, [ino, offset]]) => [name, { ino, offset }]));
  }
  return new Map();
}

/** The consumer's side: the only process that writes the checkpoint. */
export class CheckpointWriter {
  private size = 0;
  private readonly file: AppendOnlyFile;

  constructor(
    private readonly path: string,
    private readonly durable: boolean,
  ) {
    this.file = new AppendOnlyFile(path);
  }

  /** Take ownership after a possible crash: cut a torn last line, and read where the consumer got to. */
  open(): Positions {
    truncateTornTail(this.path);
    const positions = readCheckpoint(this.path);
    this.size = statSync(this.path, { throwIfNoEntry: false })?.size ?? 0;
    return positions;
  }

  write(positions: Positions): void {
    const logs = Object.fromEntries([...positions].map(([name, { ino, offset }]) => [name, [ino, offset]]));
    const line = `${JSON.stringify({ logs })}\n`;
    const bytes = Buffer.byteLength(line);
    if (this.size + bytes > ROTATE_BYTES) {
      this.file.close();
      writeFileAtomic(this.path, line, { fsync: this.durable });
      if (this.durable) fsyncPath(dirname(this.path));
      this.size = bytes;
      return;
    }
    this.file.append(Buffer.from(line));
    if (this.durable) this.file.sync();
    this.size += bytes;
  }

  close(): void {
    this.file.close();
  }
}
