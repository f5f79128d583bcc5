import { existsSync, readFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';

/**
 * The type of the filesystem holding `path` (ext4, tmpfs, …), from /proc/mounts: file-per-message
 * costs differ a lot between filesystems, so a figure means little without it.
 */
export function filesystemOf(path: string): string {
  if (!existsSync('/proc/mounts')) return 'unknown';
  const target = resolve(path);
  let best = { mountPoint: '', type: 'unknown' };
  for (const line of readFileSync('/proc/mounts', 'utf8').split('\n')) {
    const [, mountPoint, type] = line.split(' ');
    if (mountPoint === undefined || type === undefined) continue;
    const covers = target === mountPoint || target.startsWith(mountPoint === sep ? sep : `${mountPoint}${sep}`);
    if (covers && mountPoint.length >= best.mountPoint.length) best = { mountPoint, type };
  }
  return best.type;
}
