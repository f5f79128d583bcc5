import { readdirSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as z from 'zod';
import { Envelope, MessageId } from '../../../protocol/index.js';
import { AppendOnlyFile } from '../append-file.js';
import { readLines, truncateTornTail } from '../jsonl.js';
import { isMissing } from '../../../lib/index.js';
import { fsyncPath } from './layout.js';

/**
 * delivered.jsonl: one envelope per line, appended by the mailbox's single consumer before
 * it records the messages as read. It is what makes delivery exactly-once across crashes
 * (its tail is the dedupe set) and it is the agent's inbox history. Past `maxBytes` it is
 * rotated to delivered.<ms>.jsonl and only the newest `archives` archives are kept.
 */
export type JournalOptions = { maxBytes: number; archives: number; durable: boolean };

const ARCHIVE = /^delivered\.(\d{13,})\.jsonl$/;
/** A journal line read for its id alone: all a dedupe needs. */
export const JournalId = z.object({ id: MessageId });

function archivesOf(path: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
  // Fixed-width millisecond stamps: name order is rotation order.
  return names.filter((name) => ARCHIVE.test(name)).sort().map((name) => join(dirname(path), name));
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch (error) {
    if (isMissing(error)) return 0;
    throw error;
  }
}

const NEWLINE = Buffer.from('\n');

export class DeliveredJournal {
  private size = 0;
  private readonly file: AppendOnlyFile;

  constructor(
    private readonly path: string,
    private readonly options: JournalOptions,
  ) {
    this.file = new AppendOnlyFile(path);
  }

  /**
   * Take ownership after a possible crash: cut a torn last line (a batch the consumer died
   * writing, not yet recorded as read, so it will be journaled again) and return the last
   * `capacity` ids journaled. Rotation happens before an append, never between an append and
   * the checkpoint (or removal of files) that records its messages as read, so the ids of a
   * batch a crash left unrecorded are always in the current file.
   */
  open(capacity: number): string[] {
    truncateTornTail(this.path);
    this.size = sizeOf(this.path);
    return readLines(this.path, JournalId).records.slice(-capacity).map((record) => record.id);
  }

  /**
   * Journal messages given as their JSON text (one message each, as read and checked), in one
   * write(2). It starts with a newline, which ends a line torn by a kill (open cuts one too).
   */
  append(lines: readonly Buffer[]): void {
    if (lines.length === 0) return;
    if (this.size >= this.options.maxBytes) this.rotate();
    const parts: Buffer[] = [NEWLINE];
    for (const line of lines) parts.push(line, NEWLINE);
    const data = Buffer.concat(parts);
    this.file.append(data);
    if (this.options.durable) this.file.sync();
    // Counted, not stat'ed: the consumer is the only process that writes its journal.
    this.size += data.length;
  }

  close(): void {
    this.file.close();
  }

  private rotate(): void {
    this.file.close();
    const existing = archivesOf(this.path);
    const newest = existing.at(-1);
    const newestStamp = newest === undefined ? 0 : Number(ARCHIVE.exec(basename(newest))?.[1] ?? 0);
    // Strictly increasing even when two rotations fall in one millisecond.
    const stamp = Math.max(Date.now(), newestStamp + 1);
    renameSync(this.path, join(dirname(this.path), `delivered.${String(stamp).padStart(13, '0')}.jsonl`));
    if (this.options.durable) fsyncPath(dirname(this.path));
    this.size = 0;
    const archives = archivesOf(this.path);
    for (const old of archives.slice(0, Math.max(0, archives.length - this.options.archives))) unlinkSync(old);
  }
}

/** Every journaled message still kept, oldest first: the archives, then the current file. */
export function readJournal(path: string): Envelope[] {
  return [...archivesOf(path), path].flatMap((file) => readLines(file, Envelope).records);
}

/** The file's inode, or undefined when there is none: how a rotation is told. */
export function inodeOf(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/**
 * Reads what the consumer journals, for an observer (`teams inbox --follow`) that must neither
 * miss nor repeat a line: from now on, or, `fromStart`, from the oldest archive kept. A
 * rotation is told by the file's inode, not its size: the new file may already be longer than
 * the old offset. The lines appended to the old file after the last look are read from its
 * archive before the new file is read from its start.
 */
export class JournalFollower {
  private inode: number | undefined;
  private offset: number;
  /** Archives still to read in full before the current file (only when following from the start). */
  private archives: string[];

  constructor(
    private readonly path: string,
    options: { fromStart?: boolean } = {},
  ) {
    this.inode = inodeOf(path);
    // The inode first: an archive made after it is read in next() as the rotated file.
    this.archives = options.fromStart ? archivesOf(path).filter((archive) => inodeOf(archive) !== this.inode) : [];
    this.offset = options.fromStart ? 0 : readLines(path, JournalId).nextOffset;
  }

  next(): Envelope[] {
    const older = this.archives.flatMap((archive) => readLines(archive, Envelope).records);
    this.archives = [];
    for (;;) {
      const inode = inodeOf(this.path);
      const rotated = this.inode !== undefined && inode !== this.inode ? archivesOf(this.path).find((archive) => inodeOf(archive) === this.inode) : undefined;
      const rest = rotated === undefined ? [] : readLines(rotated, Envelope, this.offset).records;
      const fresh = readLines(this.path, Envelope, inode === this.inode ? this.offset : 0);
      // Rotated while reading: what was read may belong to either file, so look again.
      if (inodeOf(this.path) !== inode) continue;
      this.inode = inode;
      this.offset = fresh.nextOffset;
      return [...older, ...rest, ...fresh.records];
    }
  }
}
