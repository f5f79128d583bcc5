import { closeSync } from 'node:fs';
import { openEntry } from './open-entry.js';

/** How many logs' descriptors are kept open at most: a mailbox has a log or two per running writer. */
const KEPT = 128;

export type OpenLog = { fd: number; ino: number; size: number };

/**
 * The consumer's read descriptors of the logs it follows, kept open between drains: a log that
 * has grown costs an lstat and a read, not an open, an fstat and a close as well. A log is known
 * by its inode, so another file put in its place is opened anew. Past KEPT the oldest is
 * closed, so a mailbox full of logs costs descriptors no more than that.
 */
export class LogDescriptors {
  private readonly open = new Map<string, { fd: number; ino: number }>();

  /**
   * A descriptor on the log `name` at `path`, which lstat has just found to be a regular file
   * (inode `ino`, `size` bytes); throws as openEntry does when it cannot be opened as one.
   */
  get(name: string, path: string, ino: number, size: number): OpenLog {
    const known = this.open.get(name);
    if (known?.ino === ino) return { fd: known.fd, ino, size };
    this.close(name);
    const { fd, stats } = openEntry(path);
    const oldest = this.open.keys().next();
    if (this.open.size >= KEPT && oldest.done !== true) this.close(oldest.value);
    this.open.set(name, { fd, ino: stats.ino });
    // Put in its place between the lstat and the open: what was opened is what counts.
    return { fd, ino: stats.ino, size: stats.size };
  }

  close(name: string): void {
    const known = this.open.get(name);
    if (known === undefined) return;
    this.open.delete(name);
    closeSync(known.fd);
  }

  /** Close those of logs that are gone. */
  retain(names: ReadonlySet<string>): void {
    for (const name of [...this.open.keys()]) if (!names.has(name)) this.close(name);
  }

  closeAll(): void {
    for (const name of [...this.open.keys()]) this.close(name);
  }
}
