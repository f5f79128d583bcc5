import { closeSync, fstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { isMissing, lookOnChange, watchAppendsForHints } from '../../lib/index.js';
import { AgentName } from '../../protocol/index.js';
import { channelLineProblem, type ChannelBatch, type HostChannel } from '../hosts.js';
import type { Subscription } from '../transport.js';
import { AppendOnlyFile } from './append-file.js';

/** Read at most this much per batch: a follower of a long channel catches up a batch at a time. */
const MAX_BATCH_BYTES = 1024 * 1024;

/**
 * A host's channel as a file, <dir>/<host>.<suffix>, one line per entry, appended with
 * O_APPEND in one write(2), so lines of several writers never interleave. The cursor is the
 * byte offset after the last line read, as a decimal string.
 */
export class FileChannel implements HostChannel {
  constructor(
    private readonly dir: string,
    private readonly suffix: string,
  ) {}

  private pathOf(host: string): string {
    // The name becomes a file name: nothing but a valid agent name may.
    return join(this.dir, `${AgentName.parse(host)}.${this.suffix}`);
  }

  async append(host: string, line: string): Promise<void> {
    const problem = channelLineProblem(line);
    if (problem) throw new Error(problem);
    mkdirSync(this.dir, { recursive: true });
    const file = new AppendOnlyFile(this.pathOf(host));
    try {
      file.append(Buffer.from(`${line}\n`, 'utf8'));
    } finally {
      file.close();
    }
  }

  async follow(host: string, listener: (batch: ChannelBatch) => void, from?: string): Promise<Subscription> {
    const path = this.pathOf(host);
    let position = positionOf(from);
    // The channel is watched as itself, so it must exist.
    mkdirSync(this.dir, { recursive: true });
    closeSync(openSync(path, 'a'));
    const watch = (_paths: readonly string[], onHint: () => void) => watchAppendsForHints(path, onHint);
    return lookOnChange([path], () => {
      for (;;) {
        const batch = readFrom(path, position);
        if (batch.lines.length === 0) return;
        position = Number(batch.next);
        listener(batch);
      }
    }, watch);
  }
}

function positionOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (!/^\d{1,15}$/.test(cursor)) throw new Error(`not a cursor of this channel: '${cursor.slice(0, 40)}'`);
  return Number(cursor);
}

/** Complete lines after `start`; a line still being written waits for the next read. */
function readFrom(path: string, start: number): ChannelBatch {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if (isMissing(error)) return { lines: [], next: String(start) };
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    if (start > size) throw new Error(`the channel ${path} is shorter than the cursor ${start}: it was replaced`);
    const buffer = Buffer.alloc(Math.min(size - start, MAX_BATCH_BYTES));
    const got = readSync(fd, buffer, 0, buffer.length, start);
    const end = buffer.subarray(0, got).lastIndexOf(0x0a);
    if (end < 0) return { lines: [], next: String(start) };
    const lines = buffer.subarray(0, end).toString('utf8').split('\n');
    return { lines, next: String(start + end + 1) };
  } finally {
    closeSync(fd);
  }
}
