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
 * SIGKILL a command's whole process group, and the leader's children that left it: a
 * sandboxed command runs in a session of its own (bwrap --new-session), out of the group's
 * reach. bubblewrap's --die-with-parent takes it down with the group nearly always, but once a
 * real-terminal test found an interrupted command's sandbox still running, its outer bwrap
 * killed. The child is the sandbox's init, and the kernel ends every process of a PID
 * namespace with its init, so killing it does not depend on that signal.
 */
export function killProcessGroup(pgid: number): void {
  // Listed while the leader lives (its children are reparented once it dies), killed after it:
  // the leader dies by the signal, not by seeing its children go first.
  const children = childrenOf(pgid);
  sigkill(-pgid);
  for (const child of children) sigkill(child);
}
