import { readdirSync, readFileSync } from 'node:fs';

/** The processes `pid` started that still run, as the kernel lists them per thread. */
function childrenOf(pid: number): number[] {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return threads.flatMap((tid) => {
    try {
      return readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
}

function sigkill(target: number): void {
  try {
    process.kill(target, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * SIGKILL a command's whole process group, and first the leader's children that left it: a
 * sandboxed command runs in a session of its own (bwrap --new-session), out of the group's
 * reach. bubblewrap's --die-with-parent takes it down with the group nearly always, but once a
 * real-terminal test found an interrupted command's sandbox still running, its outer bwrap
 * killed. The child is the sandbox's init, and the kernel ends every process of a PID
 * namespace with its init, so killing it first does not depend on that signal.
 */
export function killProcessGroup(pgid: number): void {
  for (const child of childrenOf(pgid)) sigkill(child);
  sigkill(-pgid);
}
