import { closeSync, constants, fstatSync, lstatSync, openSync, type Stats } from 'node:fs';
import { isMissing } from '../../../lib/index.js';

/** What kind of thing a non-regular entry is, for the reason it is set aside. */
export function kindOf(stats: Stats): string {
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  return 'unknown kind';
}

export class NotRegular extends Error {
  constructor(readonly kind: string) {
    super(`not a regular file: ${kind}`);
  }
}

/**
 * Opened without following a symlink (a teammate could point one at any file the reader may
 * read) and without blocking (opening a FIFO for reading waits for a writer). Neither flag
 * changes anything for the regular file every real mailbox entry is.
 */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Open a mailbox entry for reading if it is a regular file itself; throws NotRegular otherwise. */
export function openEntry(path: string): { fd: number; stats: Stats } {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    // A symlink fails with ELOOP (EMLINK on some BSDs), a socket with ENXIO: say what it is.
    const stats = isMissing(error) ? undefined : lstatSync(path, { throwIfNoEntry: false });
    if (stats !== undefined && !stats.isFile()) throw new NotRegular(kindOf(stats));
    throw error;
  }
  const stats = fstatSync(fd);
  if (stats.isFile()) return { fd, stats };
  closeSync(fd);
  throw new NotRegular(kindOf(stats));
}
