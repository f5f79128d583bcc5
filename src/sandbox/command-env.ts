import { STORE_ENV } from '../store/index.js';

/**
 * What a command's environment may hold: what a shell and its tools need to behave, nothing
 * of the lead's own. Whatever else the human's shell carries (AWS_SECRET_ACCESS_KEY,
 * GITHUB_TOKEN, the model's ANTHROPIC_API_KEY) a prompt-injected command with the network on
 * could send anywhere, so it is left out unless the project's settings name it
 * (`sandbox.env`). TMPDIR is left out too: the sandbox's /tmp is private and the lead's
 * TMPDIR may lie where the command cannot write; /tmp is every tool's default.
 */
const ALLOWED = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TERM', 'COLORTERM', 'NO_COLOR', 'TZ'] as const;

/**
 * Never passed, even when the project's settings name it: the team store's descriptor, which may
 * hold the store's password. A command that could reach the store could forge nothing (trust is
 * not kept there) but could read and delete the team's state.
 */
const WITHHELD: readonly string[] = [STORE_ENV];

export function isAllowedVariable(name: string, named: readonly string[]): boolean {
  if (WITHHELD.includes(name)) return false;
  return (ALLOWED as readonly string[]).includes(name) || name.startsWith('LC_') || named.includes(name);
}

/** The allowlisted part of `env` plus the variables `named`; `env` itself is not changed. */
export function commandEnv(env: NodeJS.ProcessEnv, named: readonly string[]): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key, value]) => value !== undefined && isAllowedVariable(key, named)));
}

/** For doctor: which of `env`'s variables a command gets. */
export function passedVariables(env: NodeJS.ProcessEnv, named: readonly string[]): string[] {
  return Object.keys(commandEnv(env, named)).sort();
}
