import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isMissing } from '../../../lib/index.js';
import { namesIn } from '../names-in.js';
import { CheckpointWriter, type Positions } from './checkpoint.js';
import type { MailboxLayout } from './layout.js';
import { sealLogsUnder } from './log-writer.js';
import { WRITER_ID, WriterLiveness } from './log-names.js';
import { scanLogs } from './log-scan.js';

/**
 * Empty a mailbox for good (its member has left): every message, waiting or handled, and
 * what was set aside. A log another running process still appends to cannot be deleted (its
 * descriptor would go on writing into a deleted file, and a member added later under the same
 * name would never see those messages): it is kept, and a fresh checkpoint starts reading it
 * at its last complete line. With no such log the mailbox's directory goes altogether. Its
 * consumer must have stopped.
 */
export function clearMailbox(layout: MailboxLayout): void {
  // This process's own logs are closed, so they can go like any finished one.
  sealLogsUnder(layout.logs);
  const kept: Positions = new Map();
  for (const log of scanLogs(layout.logs, new WriterLiveness()).logs) {
    const path = join(layout.logs, log.name);
    const position = log.finished || log.writer === WRITER_ID ? undefined : endOfLastLine(path);
    if (position) kept.set(log.name, position);
    else rmSync(path, { force: true });
  }
  if (kept.size === 0) {
    rmSync(layout.dir, { recursive: true, force: true });
    return;
  }
  for (const name of namesIn(layout.dir)) if (name !== 'logs') rmSync(join(layout.dir, name), { recursive: true, force: true });
  for (const name of namesIn(layout.logs)) if (!kept.has(name)) rmSync(join(layout.logs, name), { recursive: true, force: true });
  const checkpoint = new CheckpointWriter(layout.checkpoint, false);
  checkpoint.open();
  checkpoint.write(kept);
  checkpoint.close();
}

/** Where a log's last complete line ends (a line still being written is left to be read), or undefined if it is gone. */
function endOfLastLine(path: string): { ino: number; offset: number } | undefined {
  try {
    const { ino } = statSync(path);
    return { ino, offset: readFileSync(path).lastIndexOf(0x0a) + 1 };
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}
