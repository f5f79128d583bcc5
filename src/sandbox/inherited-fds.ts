import { closeSync, readdirSync, readFileSync } from 'node:fs';

/**
 * Descriptors this process was started with, beyond stdio, are passed on to every child:
 * bubblewrap does not close them, so a sandboxed command could use them, and one may be a Unix
 * socket or a pipe to something outside (an editor's terminal, a job server, an activated
 * socket), past the seccomp filter, which refuses only new sockets. Node opens all of its own
 * with O_CLOEXEC, so one without it is inherited: closed here, once, before the first sandboxed
 * command. Node's IPC channel (NODE_CHANNEL_FD) is its own and stays.
 */
const O_CLOEXEC = 0o2000000;

let closed = false;

export function closeInheritedDescriptors(): void {
  if (closed) return;
  closed = true;
  const channel = process.env['NODE_CHANNEL_FD'];
  let names: string[];
  try {
    names = readdirSync('/proc/self/fd');
  } catch {
    return;
  }
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 2 || name === channel) continue;
    try {
      const flags = /^flags:\s+([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
      if (flags !== undefined && (parseInt(flags, 8) & O_CLOEXEC) === 0) closeSync(fd);
    } catch {
      // Gone meanwhile (the directory's own descriptor among them): nothing to close.
    }
  }
}
