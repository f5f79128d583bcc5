import { lstatSync, unlinkSync } from 'node:fs';
import { join, sep } from 'node:path';
import { isMissing, errorMessage } from '../../../lib/index.js';
import { failpoint } from '../../failpoint.js';
import type { CheckpointWriter, Positions } from './checkpoint.js';
import type { Intake } from './intake.js';
import type { MailboxLayout } from './layout.js';
import { MailboxLogBatch, type RefusedLine } from './log-batch.js';
import { logLines } from './log-lines.js';
import { NOT_A_LOG, WriterLiveness } from './log-names.js';
import { scanLogs, type ScannedLog } from './log-scan.js';
import { LogDescriptors, type OpenLog } from './log-descriptors.js';
import { kindOf, NotRegular } from './open-entry.js';
import { keepAside, moveAside } from './set-aside.js';
import type { SetAside } from '../../transport.js';

/**
 * The consumer's side of the logs: reads every log from where the checkpoint says it got to,
 * complete lines only, and commits in bounded batches: set-aside lines copied into bad/, the
 * messages journaled, the checkpoint advanced, and only then the batch handed over. A finished
 * log (sealed, or its writer gone) that has been read to its end is deleted.
 */
export class LogDrain {
  /** How far each log has been taken, as the checkpoint says: changed only by a commit. */
  private readonly positions: Positions;
  /**
   * Each log's inode and size when last read to its end, and whether a partial line was left
   * at that end: an unchanged log costs one lstat.
   */
  private readonly seen = new Map<string, { ino: number; size: number; partial: boolean }>();
  private readonly liveness = new WriterLiveness();
  private readonly descriptors = new LogDescriptors();
  /** Entries that could not be set aside: reported once, then skipped until the consumer restarts. */
  private readonly stuck = new Set<string>();
  private batch: MailboxLogBatch;

  constructor(
    private readonly layout: MailboxLayout,
    private readonly checkpoint: CheckpointWriter,
    private readonly intake: Intake,
  ) {
    this.positions = checkpoint.open();
    this.batch = new MailboxLogBatch(intake);
  }

  /**
   * Take what is new. Returns whether a running writer's log ends in a partial line: a write
   * in flight, or the torn line of a writer that has just been killed, which nothing will
   * announce. The caller drains again once the writer's liveness may have been looked at anew.
   */
  drain(stopping: () => boolean): boolean {
    const scan = scanLogs(this.layout.logs, this.liveness);
    for (const name of scan.strays) this.setAsideEntry(name, NOT_A_LOG);
    const listed = new Set(scan.logs.map((log) => log.name));
    for (const name of this.positions.keys()) if (!listed.has(name)) this.positions.delete(name);
    for (const name of this.seen.keys()) if (!listed.has(name)) this.seen.delete(name);
    this.descriptors.retain(listed);
    const done: string[] = [];
    for (const log of scan.logs) {
      if (stopping()) break;
      if (this.read(log, stopping)) done.push(log.name);
    }
    this.commit();
    // Only now that the checkpoint covers them: a log deleted before would take its last lines along.
    for (const name of done) this.remove(name);
    return scan.logs.some((log) => !log.finished && this.seen.get(log.name)?.partial === true);
  }

  /** Once no drain runs any more. */
  close(): void {
    this.descriptors.closeAll();
    this.checkpoint.close();
  }

  /** Take what is new in one log; whether it is finished and taken to its end. */
  private read(log: ScannedLog, stopping: () => boolean): boolean {
    if (this.stuck.has(log.name)) return false;
    const path = `${this.layout.logs}${sep}${log.name}`;
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (stats === undefined) return false;
    if (!stats.isFile()) {
      this.setAsideEntry(log.name, `not a regular file: ${kindOf(stats)}`);
      return false;
    }
    const seen = this.seen.get(log.name);
    if (!log.finished && seen?.ino === stats.ino && seen.size === stats.size) return false;
    let opened: OpenLog;
    try {
      opened = this.descriptors.get(log.name, path, stats.ino, stats.size);
    } catch (error) {
      if (!isMissing(error)) this.setAsideEntry(log.name, error instanceof NotRegular ? error.message : `unreadable: ${errorMessage(error)}`);
      return false;
    }
    const { fd, ino, size } = opened;
    const committed = this.positions.get(log.name);
    // Another file put in the log's place is read from its start.
    let reached = committed?.ino === ino ? committed.offset : 0;
    for (const line of logLines(fd, reached, size, log.finished)) {
      this.batch.take(log, path, ino, line);
      reached = line.next;
      if (!this.batch.full) continue;
      this.commit();
      if (stopping()) return false;
    }
    this.seen.set(log.name, { ino, size, partial: reached < size });
    return log.finished && reached >= size;
  }

  private commit(): void {
    const batch = this.batch;
    if (batch.empty) return;
    this.batch = new MailboxLogBatch(this.intake);
    const setAside = batch.problems.map((problem) => this.keep(problem));
    const taken = batch.messages();
    if (taken.length > 0) this.intake.journal.append(taken.map((message) => message.line));
    // Journaled, the logs' positions not yet recorded: the one window a crash leaves duplicates
    // in, which the restarted consumer drops because these ids are in the journal's tail.
    failpoint('mailbox-after-journal');
    for (const [name, position] of batch.positions()) this.positions.set(name, position);
    this.checkpoint.write(this.positions);
    // Recorded as handled, not yet handed over: a crash here loses the hand-over, never the record.
    failpoint('mailbox-after-checkpoint');
    for (const { envelope } of taken) this.intake.handled.add(envelope.id);
    for (const problem of setAside) this.intake.emit({ type: 'set_aside', problem });
    if (taken.length > 0) this.intake.emit({ type: 'delivered', messages: taken.map((message) => message.envelope) });
  }

  private keep(problem: RefusedLine): SetAside {
    const kept = keepAside(this.layout.bad, problem.name, problem.evidence);
    if (kept.kind === 'kept') return { ref: kept.to, reason: problem.reason };
    return { ref: problem.where, reason: `${problem.reason}; could not be kept in bad/ (${kept.error}): left in the log, skipped` };
  }

  /** An entry of logs/ that is no log: moved into bad/ whole, under its own name. */
  private setAsideEntry(name: string, reason: string): void {
    if (this.stuck.has(name)) return;
    this.descriptors.close(name);
    const from = join(this.layout.logs, name);
    const moved = moveAside(from, this.layout.bad, name);
    if (moved.kind === 'moved') this.intake.emit({ type: 'set_aside', problem: { ref: moved.to, reason } });
    else if (moved.kind === 'stuck') {
      this.stuck.add(name);
      const why = `${reason}; could not be moved to bad/ (${moved.error}): left in logs/ and skipped until the consumer restarts`;
      this.intake.emit({ type: 'set_aside', problem: { ref: from, reason: why } });
    }
  }

  private remove(name: string): void {
    this.descriptors.close(name);
    try {
      unlinkSync(join(this.layout.logs, name));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    this.positions.delete(name);
    this.seen.delete(name);
  }
}
