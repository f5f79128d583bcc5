import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { Launch } from './launcher.js';
import { SECCOMP_FD } from './seccomp.js';
import { closeInheritedDescriptors } from './inherited-fds.js';

/**
 * Start `launch` as the leader of a process group of its own, with stdout and stderr piped. The
 * one place a Launch becomes a process, for agents' commands and hooks alike, so whatever a
 * Launch carries besides its arguments (the seccomp program) reaches every sandboxed command.
 *
 * The program goes through a pipe on fd 3 that bubblewrap reads to its end and closes before
 * the command starts: ~100 bytes fit any pipe buffer, and nothing lies on disk for a command
 * to change. If bubblewrap cannot read or load it, it exits with an error: the command never
 * runs unfiltered.
 */
export function spawnLaunch(launch: Launch, cwd: string, stdin: 'ignore'): ChildProcessByStdio<null, Readable, Readable>;
export function spawnLaunch(launch: Launch, cwd: string, stdin: 'pipe'): ChildProcessByStdio<Writable, Readable, Readable>;
export function spawnLaunch(launch: Launch, cwd: string, stdin: 'ignore' | 'pipe'): ChildProcess {
  closeInheritedDescriptors();
  const program = launch.seccomp;
  const child = spawn(launch.file, launch.args, { cwd, env: launch.env, detached: true, stdio: [stdin, 'pipe', 'pipe', program ? 'pipe' : 'ignore'] });
  const toBwrap = child.stdio[SECCOMP_FD];
  if (program && toBwrap && 'write' in toBwrap) {
    // A bubblewrap that failed before reading closes its end: that failure is its exit status.
    toBwrap.on('error', () => undefined);
    toBwrap.end(program);
  }
  return child;
}
