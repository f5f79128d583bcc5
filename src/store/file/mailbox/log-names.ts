import { randomBytes } from 'node:crypto';
import { isRunning, processStartTime } from '../../../lib/index.js';

/**
 * Log names: <pid>-<start>-<random>.<seq>.log. The writer id (all but the seq) names one
 * process for good: its pid, its start time (clock ticks since boot, 0 where there is no
 * procfs) and 10 random hex digits, so that no later process, even one given the same pid,
 * ever appends to a log an earlier one left a torn line in. The seq counts the logs one
 * writer has opened in one mailbox: a writer never appends to a log once it has opened a
 * later one, which is how a reader knows a log is sealed.
 */
const LOG_NAME = /^(\d{1,10})-(\d{1,20})-([0-9a-f]{10})\.(\d{1,9})\.log$/;

/** Why an entry of logs/ is set aside when its name is not a log's. */
export const NOT_A_LOG = 'not a mailbox log (<pid>-<start>-<random>.<seq>.log)';

/** The start time written when this process could not read its own. */
const UNKNOWN_START = '0';

export type LogName = { name: string; writer: string; pid: number; startTime: string | undefined; seq: number };

export function parseLogName(name: string): LogName | undefined {
  const match = LOG_NAME.exec(name);
  if (match === null) return undefined;
  const [, pid = '', start = '', random = '', seq = ''] = match;
  return { name, writer: `${pid}-${start}-${random}`, pid: Number(pid), startTime: start === UNKNOWN_START ? undefined : start, seq: Number(seq) };
}

/** This process's writer id: every transport in it appends to the same log of a mailbox. */
export const WRITER_ID = `${process.pid}-${processStartTime(process.pid) ?? UNKNOWN_START}-${randomBytes(5).toString('hex')}`;

export function logFileName(seq: number): string {
  return `${WRITER_ID}.${seq}.log`;
}

/** How long a writer seen running is believed to run: liveness only decides when to clean up. */
export const ALIVE_FOR_MS = 1_000;

/**
 * Whether the writer of a log has ended, asked of procfs at most once a second per writer (a
 * reader asks on every drain). Only for cleanup and torn tails, never for trust: a log's
 * content is checked line by line whoever wrote it. The writers must share the reader's PID
 * namespace, as the team's processes do.
 */
export class WriterLiveness {
  private readonly ended = new Set<string>();
  private readonly runningUntil = new Map<string, number>();

  hasEnded(log: LogName, now = Date.now()): boolean {
    if (this.ended.has(log.writer)) return true;
    if ((this.runningUntil.get(log.writer) ?? 0) > now) return false;
    if (isRunning(log.pid, log.startTime)) {
      this.runningUntil.set(log.writer, now + ALIVE_FOR_MS);
      return false;
    }
    this.runningUntil.delete(log.writer);
    this.ended.add(log.writer);
    return true;
  }

  /** Forget the writers that have no log left, so that what is remembered stays bounded. */
  retain(writers: ReadonlySet<string>): void {
    for (const writer of this.ended) if (!writers.has(writer)) this.ended.delete(writer);
    for (const writer of this.runningUntil.keys()) if (!writers.has(writer)) this.runningUntil.delete(writer);
  }
}
