import { readFileSync } from 'node:fs';

/** The parent of a process, from /proc (Linux); undefined once the chain can't be read. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: fields resume after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    return Number.isInteger(ppid) && ppid > 0 ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `pid` is one of `ancestors` or runs somewhere below one of them. */
export function descendsFrom(pid: number, ancestors: ReadonlySet<number>): boolean {
  let current: number | undefined = pid;
  for (let depth = 0; current !== undefined && current > 1 && depth < 128; depth++) {
    if (ancestors.has(current)) return true;
    current = parentOf(current);
  }
  return false;
}
