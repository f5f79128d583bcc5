import { closeSync, constants, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { sep } from 'node:path';
import { errnoCode, isMissing } from '../../../lib/index.js';
import { fsyncPath } from './layout.js';
import { logFileName } from './log-names.js';

/** Past this size a writer seals its log and opens the next, so a reader can delete what it has read. */
export const SEAL_BYTES = 1 << 20;

/**
 * Created, never opened twice (the name is this process's own), never through a symlink, and
 * appended to: every write(2) lands at the end, whatever else happens to the file.
 */
const CREATE_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

type OpenLog = { fd: number; bytes: number };

/** This process's open log in each mailbox it writes to, by logs directory, and the seq of the next it opens there. */
const openLogs = new Map<string, OpenLog>();
const nextSeq = new Map<string, number>();

function create(logsDir: string, durable: boolean): OpenLog {
  let seq = nextSeq.get(logsDir) ?? 0;
  for (;;) {
    let fd: number;
    try {
      fd = openSync(`${logsDir}${sep}${logFileName(seq)}`, CREATE_FLAGS, 0o644);
    } catch (error) {
      // EEXIST: someone put a file under our name; the next seq is ours as well.
      if (errnoCode(error) === 'EEXIST') seq++;
      else if (isMissing(error)) mkdirSync(logsDir, { recursive: true });
      else throw error;
      continue;
    }
    nextSeq.set(logsDir, seq + 1);
    if (durable) fsyncPath(logsDir);
    const log = { fd, bytes: 0 };
    openLogs.set(logsDir, log);
    return log;
  }
}

/** Close the log: the next append opens a later one, which seals this one for the reader. */
function seal(logsDir: string, log: OpenLog): void {
  openLogs.delete(logsDir);
  try {
    closeSync(log.fd);
  } catch {
    // Already unusable: sealing is all that is asked of it.
  }
}

/**
 * Close this process's open logs in every logs directory at or under `dir`: they are about to
 * be deleted, and a descriptor kept open on a deleted log would swallow what is sent next.
 * The next append opens a fresh log.
 */
export function sealLogsUnder(dir: string): void {
  for (const [logsDir, log] of openLogs) if (logsDir === dir || logsDir.startsWith(`${dir}${sep}`)) seal(logsDir, log);
}

/** Write the rest of a line after a short write: as bytes, from where the first write stopped. */
function finish(fd: number, line: string, written: number): void {
  const bytes = Buffer.from(line, 'utf8');
  for (let at = written; at < bytes.length; ) at += writeSync(fd, bytes, at);
}

/**
 * Append one message line (its JSON and a newline; `bytes` long in UTF-8) to this process's
 * log in `logsDir`, in one write(2): once it returns, any reader can read the line whole. A
 * string goes to write(2) without a Buffer made of it first, which costs more than the write.
 * The log is never checked for having been removed under us (a stat per message would cost
 * more still): the consumer removes only logs that are sealed or whose writer has ended, and a
 * person who removes a mailbox while its team runs loses what is sent to it.
 */
export function appendLine(logsDir: string, line: string, bytes: number, durable: boolean): void {
  const log = openLogs.get(logsDir) ?? create(logsDir, durable);
  try {
    const written = writeSync(log.fd, line);
    // A regular file takes the whole line in one call; a short write is finished by more.
    if (written < bytes) finish(log.fd, line, written);
    if (durable) fsyncSync(log.fd);
  } catch (error) {
    // Part of the line may be there: a torn line, which the reader sets aside once it sees
    // the log sealed. Nothing more goes into this log.
    seal(logsDir, log);
    throw error;
  }
  log.bytes += bytes;
  if (log.bytes >= SEAL_BYTES) seal(logsDir, log);
}
