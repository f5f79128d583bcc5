import { bwrapArgs, type SandboxView } from './bwrap-args.js';
import { homedir } from 'node:os';
import { credentialPaths } from './credentials.js';
import { gitGuard } from './git-guard.js';
import { hiddenStateAround } from './state-roots.js';
import type { CommandGrant } from '../policy/grant.js';
import type { SandboxSettings } from './settings.js';

/** How one shell command is started: the program, its arguments and its environment. */
export type Launch = { file: string; args: string[]; env: NodeJS.ProcessEnv };
/** `grant`: what the policy gave this one command (grant.ts); the sandbox enforces it. */
export type Launcher = (command: string, cwd: string, grant: CommandGrant) => Launch;

/**
 * What may change between an agent's commands: plan mode and plan approval set `writable`, a
 * ceiling no grant lifts (a granted write in plan mode before the plan's approval stays read-only).
 */
export type ViewOf = (cwd: string) => Omit<SandboxView, 'cwd' | 'network' | 'guarded'>;

/**
 * The model's credentials and the team's own settings are not a command's business: with the
 * network on, a prompt-injected command could send the API key anywhere.
 */
function commandEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !key.startsWith('ANTHROPIC_') && !key.startsWith('TEAMS_')));
}

export function launcherFor(settings: SandboxSettings, viewOf: ViewOf, env: NodeJS.ProcessEnv = process.env): Launcher {
  const cleaned = commandEnv(env);
  if (settings.kind === 'off') return (command) => ({ file: '/bin/sh', args: ['-c', command], env: cleaned });
  return (command, cwd, grant) => {
    const ceiling = viewOf(cwd);
    const writable = ceiling.writable && grant.write;
    // The settings' `none` is a ceiling too: no approval turns the network on then.
    const network = settings.network === 'on' && grant.network ? 'on' : 'none';
    // Looked at for each command: a read-only working directory needs no guard, and a `.git`
    // may have appeared (or changed) since the last one.
    const guarded = writable ? gitGuard(cwd) : [];
    // Looked at for each command too: a key made since is covered as well.
    const credentials = credentialPaths(homedir(), cwd);
    // And every team's state root around `cwd`, not only this team's: looked for each command, as
    // another lead may have started since.
    const hidden = hiddenStateAround(cwd, [...ceiling.hidden, ...credentials.dirs], env);
    return { file: settings.bwrap, args: bwrapArgs({ ...ceiling, cwd, writable, network, guarded, hidden, hiddenFiles: credentials.files }, command), env: cleaned };
  };
}
