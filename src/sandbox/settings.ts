import * as z from 'zod';
import { SandboxLimits } from './limits.js';
import { describeSeccomp, seccompFilter } from './seccomp.js';

/**
 * Where an agent's commands run. `bwrap`: inside bubblewrap, the only setting under which an
 * approval binds (the command cannot reach the team's state, the lead's channels or anything
 * outside its working directory). `off`: chosen with --no-sandbox; approvals are advisory.
 */
export const SANDBOX_NETWORKS = ['on', 'none'] as const;
export const SandboxNetwork = z.enum(SANDBOX_NETWORKS);
export type SandboxNetwork = z.infer<typeof SandboxNetwork>;

export const SandboxSettings = z.discriminatedUnion('kind', [
  // `limits`: the project's, read by the lead at its start (limits.ts); the defaults when absent.
  z.object({ kind: z.literal('bwrap'), network: SandboxNetwork, bwrap: z.string().min(1), limits: SandboxLimits.optional() }),
  z.object({ kind: z.literal('off'), limits: SandboxLimits.optional() }),
]);
export type SandboxSettings = z.infer<typeof SandboxSettings>;

/** The bubblewrap program: `bwrap` on the PATH unless TEAMS_BWRAP names another. */
export function bwrapProgram(env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env.TEAMS_BWRAP;
  return chosen !== undefined && chosen !== '' ? chosen : 'bwrap';
}

/** What a person reads wherever the sandbox's state is shown (header, status, doctor, audit). */
export function describeSandbox(settings: SandboxSettings): string {
  if (settings.kind === 'off') return 'sandbox OFF (--no-sandbox): approvals are advisory, commands can reach the team\'s state';
  // Unasked commands are read-only and offline either way; `on` lets an approval grant the network.
  const network = settings.network === 'none' ? ', no network' : ', network only for approved commands';
  // Where there is a filter it is always loaded (the probe refuses the sandbox otherwise); where
  // there is none, the person must know a command can reach any Unix socket it can see.
  const filter = seccompFilter();
  return `sandboxed (bubblewrap${network}${filter.ok ? ', Unix sockets blocked' : `; ${describeSeccomp(filter)}`})`;
}

// Said wherever the sandbox is missing, whatever part of it failed (bubblewrap itself, or its seccomp filter).
export const INSTALL_HINT = 'install bubblewrap (Debian/Ubuntu: sudo apt-get install bubblewrap) on a Linux kernel that allows namespaces and seccomp filters, or start teams with --no-sandbox (approvals are then advisory)';

/** What the lead found at start: settings to hand to teammates, or why there is no sandbox. */
export type SandboxStatus = SandboxSettings | { kind: 'unavailable'; reason: string; limits?: SandboxLimits };

/**
 * The sandbox an agent in `mode` must run its commands in. Without bubblewrap, only `bypass`
 * (which asks nothing anyway) runs unsandboxed; every other mode refuses, since its approvals
 * would not bind.
 */
export function sandboxFor(status: SandboxStatus, mode: string): { ok: true; settings: SandboxSettings } | { ok: false; error: string } {
  if (status.kind !== 'unavailable') return { ok: true, settings: status };
  if (mode === 'bypass') return { ok: true, settings: status.limits === undefined ? { kind: 'off' } : { kind: 'off', limits: status.limits } };
  return { ok: false, error: `${status.reason}: commands in ${mode} mode need the sandbox; ${INSTALL_HINT}` };
}

export function describeStatus(status: SandboxStatus): string {
  // Said in the header's first lines: the way to fix it with it, before anyone tries a spawn.
  return status.kind === 'unavailable' ? `sandbox UNAVAILABLE (${status.reason}): teammates cannot start except in bypass mode; ${INSTALL_HINT}` : describeSandbox(status);
}
