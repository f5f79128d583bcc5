import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { bwrapArgs } from './bwrap-args.js';
import type { SandboxNetwork } from './settings.js';

export type SandboxProbe = { ok: true; version: string } | { ok: false; reason: string };

/**
 * Whether bubblewrap is installed and can build the namespaces a command needs here: a real
 * sandboxed `true`, with the same mounts and namespaces as a command gets, not a version check.
 */
export function probeSandbox(bwrap: string, network: SandboxNetwork): SandboxProbe {
  const version = spawnSync(bwrap, ['--version'], { encoding: 'utf8', timeout: 5_000 });
  if (version.error) {
    const code = (version.error as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ENOENT' ? `bubblewrap (${bwrap}) is not installed` : `cannot run ${bwrap}: ${version.error.message}` };
  }
  const cwd = tmpdir();
  const run = spawnSync(bwrap, bwrapArgs({ cwd, writable: false, hidden: [], guarded: [], network }, 'true'), { encoding: 'utf8', timeout: 10_000 });
  if (run.error || run.status !== 0) {
    const said = (run.stderr ?? '').trim().split('\n')[0] || run.error?.message || `exit ${run.status}`;
    return { ok: false, reason: `bubblewrap cannot create a sandbox here (${said})` };
  }
  return { ok: true, version: version.stdout.trim() };
}
