import { closeSync, fsyncSync, openSync, renameSync, writeSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let counter = 0;

/**
 * Replace a file's contents atomically: write a temporary sibling, then rename it over
 * the target. Readers see the old file or the new one, never a mix; a crash leaves at
 * most a stray temporary file, which the next write's name does not collide with.
 */
export function writeFileAtomic(path: string, data: string | Buffer, options: { fsync?: boolean; mode?: number } = {}): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${counter++}.tmp`);
  const fd = openSync(temp, 'w', options.mode ?? 0o666);
  try {
    const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let written = 0;
    while (written < buffer.length) written += writeSync(fd, buffer, written);
    if (options.fsync) fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temp);
    throw error;
  }
  closeSync(fd);
  renameSync(temp, path);
}
