import { killProcessGroup } from '../lib/index.js';
import { type Launcher, spawnLaunch } from '../sandbox/index.js';
import { READ_ONLY_GRANT, type CommandGrant } from '../policy/index.js';
import { CappedOutput } from './capped-output.js';

/** What the bash tool runs commands through; tests may swap it. */
export interface ShellIO {
  exec(command: string, options: ExecOptions): Promise<ExecResult>;
}

export type ExecOptions = {
  cwd: string;
  /** Defaults to the shell's own default (120 s for the real one). */
  timeoutMs?: number;
  /** Per stream: stdout and stderr are each cut to this many bytes, keeping head and tail. */
  maxOutputBytes?: number;
  signal?: AbortSignal;
  /** What the sandbox lets this command do; read-only and offline unless the policy granted more. */
  grant?: CommandGrant;
};

export type ExecResult = {
  stdout: string;
  stderr: string;
  /** Null when the command was killed by a signal. */
  exitCode: number | null;
  timedOut: boolean;
  /** Stopped through the abort signal. */
  aborted: boolean;
  truncated: boolean;
};

export type RealShellOptions = {
  timeoutMs?: number;
  maxOutputBytes?: number;
  env?: NodeJS.ProcessEnv;
  /** How a command is started; an agent's commands start inside its sandbox. Default: `/bin/sh -c` here. */
  launch?: Launcher;
  /** Called with each command's process group id once it starts, so a supervisor can reap it if this process dies. */
  onSpawn?: (pgid: number) => void;
  /** Called once the group is gone (killed or finished). */
  onExit?: (pgid: number) => void;
};

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 32_000;
// After the shell exits, how long its pipes may stay open (held by a process that left the group) before we stop reading.
const DRAIN_GRACE_MS = 1_000;

/**
 * Commands run by `/bin/sh -c` as the leader of a process group of their own, so that a
 * timeout or an abort SIGKILLs the whole tree: no grandchild outlives the call. For the
 * same reason background jobs a command leaves behind are killed once it exits.
 */
export function realShellIO(options: RealShellOptions = {}): ShellIO {
  return {
    exec(command, exec) {
      const maxBytes = exec.maxOutputBytes ?? options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
      const timeoutMs = exec.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      if (exec.signal?.aborted) {
        return Promise.resolve({ stdout: '', stderr: '', exitCode: null, timedOut: false, aborted: true, truncated: false });
      }
      return new Promise((resolve, reject) => {
        const launch = options.launch?.(command, exec.cwd, exec.grant ?? READ_ONLY_GRANT) ?? { file: '/bin/sh', args: ['-c', command], env: options.env ?? process.env };
        const child = spawnLaunch(launch, exec.cwd, 'ignore');
        const stdout = new CappedOutput(maxBytes);
        const stderr = new CappedOutput(maxBytes);
        child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
        child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
        let timedOut = false;
        let aborted = false;
        let drain: NodeJS.Timeout | undefined;
        const pgid = child.pid;
        if (pgid !== undefined) options.onSpawn?.(pgid);
        const stop = (why: 'timeout' | 'abort') => {
          if (why === 'timeout') timedOut = true;
          else aborted = true;
          if (pgid !== undefined) killProcessGroup(pgid);
        };
        const timer = setTimeout(() => stop('timeout'), timeoutMs);
        const onAbort = () => stop('abort');
        exec.signal?.addEventListener('abort', onAbort, { once: true });
        let settled = false;
        // 'close' can follow 'error'; the first of them ends the call.
        const settle = (): boolean => {
          if (settled) return false;
          settled = true;
          clearTimeout(timer);
          clearTimeout(drain);
          exec.signal?.removeEventListener('abort', onAbort);
          if (pgid !== undefined) options.onExit?.(pgid);
          launch.release?.();
          return true;
        };
        child.once('error', (error) => {
          if (settle()) reject(new Error(`cannot run the command in ${exec.cwd}: ${error.message}`));
        });
        child.once('exit', () => {
          if (pgid === undefined) return;
          killProcessGroup(pgid);
          // A process that left the group (setsid) may still hold the pipes open.
          drain = setTimeout(() => {
            child.stdout.destroy();
            child.stderr.destroy();
          }, DRAIN_GRACE_MS);
        });
        child.once('close', (code) => {
          if (!settle()) return;
          resolve({
            stdout: stdout.text(),
            stderr: stderr.text(),
            exitCode: code,
            timedOut,
            aborted,
            truncated: stdout.truncated || stderr.truncated,
          });
        });
      });
    },
  };
}
