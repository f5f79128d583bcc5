import { namesIn } from '../names-in.js';
import { parseLogName, type LogName, type WriterLiveness } from './log-names.js';

/** A log, and whether anything may still be appended to it. */
export type ScannedLog = LogName & { finished: boolean };

export type LogScan = {
  /** Writer by writer (in name order), each writer's logs in the order it wrote them. */
  logs: ScannedLog[];
  /** Entries that are not logs at all: for the consumer to set aside. */
  strays: string[];
};

/**
 * The logs of a mailbox and which of them are finished: sealed (its writer has opened a later
 * one) or left by a writer that has ended. Both are decided here, before any log is read, so
 * that whatever a read of a finished log finds is all it will ever hold: a partial last line
 * in it is torn for good, not a write in flight.
 */
export function scanLogs(dir: string, liveness: WriterLiveness): LogScan {
  const logs: LogName[] = [];
  const strays: string[] = [];
  for (const name of namesIn(dir)) {
    const log = parseLogName(name);
    if (log === undefined) strays.push(name);
    else logs.push(log);
  }
  logs.sort((a, b) => (a.writer === b.writer ? a.seq - b.seq : a.writer < b.writer ? -1 : 1));
  const writers = new Set(logs.map((log) => log.writer));
  liveness.retain(writers);
  const scanned = logs.map((log, index) => {
    const sealed = logs[index + 1]?.writer === log.writer;
    return { ...log, finished: sealed || liveness.hasEnded(log) };
  });
  return { logs: scanned, strays: strays.sort() };
}
