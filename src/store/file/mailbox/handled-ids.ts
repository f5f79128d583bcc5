import { readLines } from '../jsonl.js';
import { inodeOf, JournalId } from './journal.js';

/**
 * The ids the consumer has journaled as handled, read from the journal's current file, for a
 * reader that is not the consumer (peek, an observer): a message delivered again after it was
 * handled (a retried deliver) waits in a log until the consumer drops it, and must not be
 * shown as waiting meanwhile. The current file is what a restarted consumer dedupes against
 * too. Read on from where the last look stopped; a rotation starts it over on the new file.
 */
export class HandledIds {
  private readonly ids = new Set<string>();
  private inode: number | undefined;
  private offset = 0;

  constructor(private readonly path: string) {}

  /** Whether `id` was handled, as of the last `refresh`. */
  has(id: string): boolean {
    return this.ids.has(id);
  }

  refresh(): this {
    const inode = inodeOf(this.path);
    if (inode !== this.inode) {
      this.ids.clear();
      this.offset = 0;
      this.inode = inode;
    }
    if (inode === undefined) return this;
    const read = readLines(this.path, JournalId, this.offset);
    for (const record of read.records) this.ids.add(record.id);
    this.offset = read.nextOffset;
    return this;
  }
}

