import { readFileSync } from 'node:fs';
import { isProcessAlive } from './file-lock.js';

/** The fields of /proc/<pid>/stat from the third (the state) on, or undefined once it is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * When a process started (clock ticks since boot, /proc/<pid>/stat field 22), or undefined
 * once it is gone. With its pid it names one process for good: a pid reused later has
 * another start time, so a stale pid never gets a signal meant for the old process.
 */
export function processStartTime(pid: number): string | undefined {
  return statFields(pid)?.[19];
}

/**
 * Whether the process that had `pid` and started at `startTime` still runs: not when the pid
 * now belongs to a later process, nor when it is a zombie (killed, not yet reaped: it does
 * nothing more). With no start time known (no procfs where it was taken), the pid alone decides.
 */
export function isRunning(pid: number, startTime: string | undefined): boolean {
  if (startTime === undefined) return isProcessAlive(pid);
  const fields = statFields(pid);
  return fields !== undefined && fields[0] !== 'Z' && fields[19] === startTime;
}
