import { readFileSync } from 'node:fs';

/**
 * When a process started (clock ticks since boot, /proc/<pid>/stat field 22), or undefined
 * once it is gone. With its pid it names one process for good: a pid reused later has
 * another start time, so a stale pid never gets a signal meant for the old process.
 */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
