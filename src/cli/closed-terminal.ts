import { closeSync, openSync } from 'node:fs';

/**
 * Exit after the terminal has gone away (its window closed, an ssh session dropped). On its
 * way out Node 20 restores the terminal settings of stdin/stdout/stderr, and asserts (abort,
 * exit 134) when that fails with EIO on a vanished terminal. It skips any descriptor that no
 * longer refers to the file it started with, so point 0-2 at /dev/null first. This exits at
 * once: no later event-loop turn may poll the swapped descriptors.
 */
export function exitAfterClosedTerminal(code: number): never {
  for (const fd of [0, 1, 2]) {
    try {
      closeSync(fd);
    } catch {
      // Already closed: the lowest free descriptor is still this one, for the open below.
    }
    openSync('/dev/null', fd === 0 ? 'r' : 'w');
  }
  process.exit(code);
}
