import type { CommandGrant } from '../policy/index.js';
import { type Launch, type Launcher, spawnLaunch } from '../sandbox/index.js';
import { CappedOutput } from '../tools/index.js';
import type { HookExit } from './outcome.js';

/** Bytes of each stream kept for the audit log and the feedback: head and tail, the middle cut. */
export const HOOK_OUTPUT_BYTES = 16_384;

export type HookRun = { exit: HookExit; stdout: string; stderr: string };

/** How long after a hook's exit its output may still come (from what it left running). */
const OUTPUT_GRACE_MS = 1_000;

/**
 * Run one hook: `/bin/sh -c command` in the project's directory, with `input` on stdin. The
 * command is the human's own, from a file no agent can write, but what it runs on (the tests,
 * the build) a teammate wrote: so it runs in the sandbox, `launch`, with what its entry grants
 * (read-only and offline unless it says otherwise). It leads a
 * process group of its own, so a timeout kills everything it started; and once the shell has
 * exited, whatever it left running in that group is ended too, so nothing outlives a hook and
 * its output streams close. Never rejects: how it ended is the result.
 */
export function runHookProcess(command: string, options: { cwd: string; input: string; timeoutS: number; launch: Launcher; grant: CommandGrant; signal?: AbortSignal }): Promise<HookRun> {
  return new Promise((resolve) => {
    const stdout = new CappedOutput(HOOK_OUTPUT_BYTES);
    const stderr = new CappedOutput(HOOK_OUTPUT_BYTES);
    let child;
    let launch: Launch | undefined;
    try {
      launch = options.launch(command, options.cwd, options.grant);
      child = spawnLaunch(launch, options.cwd, 'pipe');
    } catch (error) {
      launch?.release?.();
      resolve({ exit: { kind: 'spawn_failed', error: (error as Error).message }, stdout: '', stderr: '' });
      return;
    }
    const group = child.pid;
    const killGroup = () => {
      if (group === undefined) return;
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // ESRCH: the group is gone already.
      }
    };
    let exit: HookExit | undefined;
    // An exit already seen stands: the wait is then only for its output (see the 'exit' handler).
    const timer = setTimeout(() => {
      exit ??= { kind: 'timed_out', afterS: options.timeoutS };
      killGroup();
    }, options.timeoutS * 1000);
    const cancel = () => {
      exit ??= { kind: 'cancelled' };
      killGroup();
    };
    if (options.signal?.aborted) cancel();
    options.signal?.addEventListener('abort', cancel, { once: true });
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    // A hook that does not read its stdin may exit before we finish writing: EPIPE is no failure of its.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      launch?.release?.();
      options.signal?.removeEventListener('abort', cancel);
      resolve({ exit: exit ?? { kind: 'spawn_failed', error: 'it ended without an exit status' }, stdout: stdout.text(), stderr: stderr.text() });
    };
    child.on('error', (error) => {
      exit ??= { kind: 'spawn_failed', error: error.message };
      // Never started (no such directory, no shell): no 'exit' will come.
      if (child.pid === undefined) finish();
    });
    child.on('exit', (code, signal) => {
      exit ??= { kind: 'exited', code, signal };
      killGroup();
      // Something it started in a session of its own (setsid) may hold its output open past the
      // group: its exit is the outcome, and the output so far is what there is.
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, OUTPUT_GRACE_MS).unref();
    });
    // After 'exit' and the streams' end: all of its output is in.
    child.on('close', finish);
  });
}
