import { readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isMissing, isProcessAlive } from '../../lib/index.js';

/** `<name>.<pid>.<counter>.tmp`: the temporaries of atomic writes and of lock acquisition. */
const TEMPORARY = /\.(\d+)\.\d+\.tmp$/;

/**
 * Remove the temporaries that processes killed mid-write left in `dir`. Only a dead writer's
 * are touched: a live one may be about to rename its file into place. Returns what was removed.
 */
export function removeStrayTemporaries(dir: string): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    const pid = Number(TEMPORARY.exec(name)?.[1] ?? 0);
    if (pid <= 0 || isProcessAlive(pid)) continue;
    try {
      unlinkSync(join(dir, name));
      removed.push(name);
    } catch (error) {
      // Another process cleaning the same directory got there first.
      if (!isMissing(error)) throw error;
    }
  }
  return removed;
}
