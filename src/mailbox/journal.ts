import { readdirSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as z from 'zod';
import { Envelope, MessageId } from '../protocol/messages.js';
import { appendLines, readLines, truncateTornTail } from '../store/jsonl.js';
import { isMissing } from '../store/errno.js';
import { fsyncPath } from './layout.js';

/**
 * delivered.jsonl: one envelope per line, appended by the mailbox's single consumer before
 * it removes the messages from new/. It is what makes delivery exactly-once across crashes
 * (its tail is the dedupe set) and it is the agent's inbox history. Past `maxBytes` it is
 * rotated to delivered.<ms>.jsonl and only the newest `archives` archives are kept.
 */
export type JournalOptions = { maxBytes: number; archives: number; durable: boolean };

const ARCHIVE = /^delivered\.(\d{13,})\.jsonl$/;
const IdOnly = z.object({ id: MessageId });

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

export class DeliveredJournal {
  private size = 0;

  constructor(
    private readonly path: string,
    private readonly options: JournalOptions,
  ) {}

  /**
   * Take ownership after a possible crash: cut a torn last line (a batch the consumer died
   * writing, still in new/, so it will be journaled again) and return the last `capacity` ids
   * journaled. Rotation happens before an append, never between an append and the removal
   * of its files, so the ids of a batch a crash left in new/ are always in the current file.
   */
  open(capacity: number): string[] {
    truncateTornTail(this.path);
    this.size = sizeOf(this.path);
    return readLines(this.path, IdOnly).records.slice(-capacity).map((record) => record.id);
  }

  append(envelopes: readonly Envelope[]): void {
    if (this.size >= this.options.maxBytes) this.rotate();
    appendLines(this.path, envelopes);
    if (this.options.durable) fsyncPath(this.path);
    this.size = sizeOf(this.path);
  }

  private rotate(): void {
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

function inodeOf(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/**
 * Reads what the consumer journals from now on, for an observer (`teams inbox --follow`) that
 * must neither miss nor repeat a line. A rotation is told by the file's inode, not its size:
 * the new file may already be longer than the old offset. The lines appended to the old file
 * after the last look are read from its archive before the new file is read from its start.
 */
export class JournalFollower {
  private inode: number | undefined;
  private offset: number;

  constructor(private readonly path: string) {
    this.inode = inodeOf(path);
    this.offset = readLines(path, IdOnly).nextOffset;
  }

  next(): Envelope[] {
    for (;;) {
      const inode = inodeOf(this.path);
      const rotated = this.inode !== undefined && inode !== this.inode ? archivesOf(this.path).find((archive) => inodeOf(archive) === this.inode) : undefined;
      const rest = rotated === undefined ? [] : readLines(rotated, Envelope, this.offset).records;
      const fresh = readLines(this.path, Envelope, inode === this.inode ? this.offset : 0);
      // Rotated while reading: what was read may belong to either file, so look again.
      if (inodeOf(this.path) !== inode) continue;
      this.inode = inode;
      this.offset = fresh.nextOffset;
      return [...rest, ...fresh.records];
    }
  }
}
