import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { bwrapArgs } from './bwrap-args.js';
import { seccompFilter } from './seccomp.js';
import type { SandboxNetwork } from './settings.js';

export type SandboxProbe = { ok: true; version: string } | { ok: false; reason: string };

/**
 * Whether bubblewrap is installed and can build the namespaces a command needs here: a real
 * sandboxed `true`, with the same mounts, namespaces and seccomp filter as a command gets, not a version check.
 */
export function probeSandbox(bwrap: string, network: SandboxNetwork): SandboxProbe {
  const version = spawnSync(bwrap, ['--version'], { encoding: 'utf8', timeout: 5_000 });
  if (version.error) {
    const code = (version.error as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ENOENT' ? `bubblewrap (${bwrap}) is not installed` : `cannot run ${bwrap}: ${version.error.message}` };
  }
  const cwd = tmpdir();
  const args = bwrapArgs({ cwd, writable: false, hidden: [], guarded: [], network }, 'true');
  // Where there is a filter for this architecture, a command never runs without it (spawn-launch.ts):
  // a kernel or bubblewrap that refuses it leaves no sandbox, not one that lets Unix sockets through.
  // Here it goes on stdin (spawnSync writes no fd 3); commands get the same bytes on fd 3.
  const filter = seccompFilter();
  const filtered = filter.ok ? sandboxedTrue(bwrap, ['--seccomp', '0', ...args], filter.program) : sandboxedTrue(bwrap, args);
  if (filtered !== undefined) {
    // Which of the two it was: only then is the sandbox tried a second time, without the filter.
    const plain = filter.ok ? sandboxedTrue(bwrap, args) : filtered;
    if (plain !== undefined) return { ok: false, reason: `bubblewrap cannot create a sandbox here (${plain})` };
    return { ok: false, reason: `bubblewrap cannot load the seccomp filter that blocks Unix sockets (${filtered})` };
  }
  return { ok: true, version: version.stdout.trim() };
}

/** Why `bwrap args` (a sandboxed `true`) failed, or undefined when it ran. */
function sandboxedTrue(bwrap: string, args: string[], input?: Buffer): string | undefined {
  const run = spawnSync(bwrap, args, { encoding: 'utf8', timeout: 10_000, ...(input ? { input } : {}) });
  if (!run.error && run.status === 0) return undefined;
  return (run.stderr ?? '').trim().split('\n')[0] || run.error?.message || `exit ${run.status}`;
}
