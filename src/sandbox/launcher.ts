import { bwrapArgs, type SandboxView } from './bwrap-args.js';
import { homedir } from 'node:os';
import { credentialPaths } from './credentials.js';
import { userConfigDir } from '../team/index.js';
import { gitGuard } from './git-guard.js';
import { hiddenStateAround } from './state-roots.js';
import { seccompLaunch } from './seccomp.js';
import type { CommandGrant } from '../policy/index.js';
import type { SandboxSettings } from './settings.js';
import { commandEnv } from './command-env.js';
import { limitCommand } from './command-limits.js';
import { DEFAULT_LIMITS, MB } from './limits.js';

/**
 * How one shell command is started: the program, its arguments and its environment; `seccomp`,
 * the filter program bubblewrap reads from fd 3 (seccomp.ts; spawnLaunch hands it over);
 * `release`, to call once the command has ended (or failed to start): it removes what was made
 * to bound it (its cgroup, command-limits.ts).
 */
export type Launch = { file: string; args: string[]; env: NodeJS.ProcessEnv; seccomp?: Buffer; release?: () => void };
/** `grant`: what the policy gave this one command (grant.ts); the sandbox enforces it. */
export type Launcher = (command: string, cwd: string, grant: CommandGrant) => Launch;

/**
 * What may change between an agent's commands: plan mode and plan approval set `writable`, a
 * ceiling no grant lifts (a granted write or network in plan mode before the plan's approval
 * stays read-only and offline).
 */
export type ViewOf = (cwd: string) => Omit<SandboxView, 'cwd' | 'network' | 'guarded'>;

/**
 * Every command, sandboxed or not, gets an allowlisted environment (command-env.ts) and is
 * bounded in memory and processes (command-limits.ts); in the sandbox, /tmp has a size too.
 */
export function launcherFor(settings: SandboxSettings, viewOf: ViewOf, env: NodeJS.ProcessEnv = process.env): Launcher {
  const limits = settings.limits ?? DEFAULT_LIMITS;
  const cleaned = commandEnv(env, limits.env);
  if (settings.kind === 'off') return (command) => ({ ...limitCommand('/bin/sh', ['-c', command], limits), env: cleaned });
  const filter = seccompLaunch();
  return (command, cwd, grant) => {
    const ceiling = viewOf(cwd);
    const writable = ceiling.writable && grant.write;
    // The settings' `none` is a ceiling too: no approval turns the network on then. So is a
    // read-only ceiling (plan mode, the lead's included): planning reads, it reaches nothing.
    const network = settings.network === 'on' && grant.network && ceiling.writable ? 'on' : 'none';
    // Looked at for each command: a read-only working directory needs no guard, and a `.git`
    // may have appeared (or changed) since the last one.
    const guarded = writable ? gitGuard(cwd) : [];
    // Looked at for each command too: a key made since is covered as well. The human's teams
    // settings too: a command has no business reading which rules and hooks the human keeps.
    const credentials = credentialPaths(homedir(), cwd, [userConfigDir(env)]);
    // And every team's state root around `cwd`, not only this team's: looked for each command, as
    // another lead may have started since.
    const hidden = hiddenStateAround(cwd, [...ceiling.hidden, ...credentials.dirs], env);
    const view: SandboxView = { ...ceiling, cwd, writable, network, guarded, hidden, hiddenFiles: credentials.files, tmpBytes: limits.tmp_mb * MB };
    // The limits' wrapper execs bubblewrap, which still finds the filter on fd 3.
    return { ...limitCommand(settings.bwrap, [...filter.args, ...bwrapArgs(view, command)], limits), env: cleaned, seccomp: filter.seccomp };
  };
}
