import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';

/**
 * A file its one owner appends to again and again (a journal): kept open with O_APPEND, so an
 * append costs one write(2), not an open and a close as well. Closed before it is renamed
 * away (the next append opens the file now at its path) and when the owner is done.
 */
export class AppendOnlyFile {
  private fd: number | undefined;

  constructor(readonly path: string) {}

  /** Append `data` in one write(2) (a regular file takes it whole; the loop is only a guard). */
  append(data: Buffer): void {
    this.fd ??= openSync(this.path, 'a');
    let written = writeSync(this.fd, data);
    while (written < data.length) written += writeSync(this.fd, data, written);
  }

  /** Flush what was appended to the disk (for a machine crash, not a process kill). */
  sync(): void {
    if (this.fd !== undefined) fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}
