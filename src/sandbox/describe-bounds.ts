import { passedVariables } from './command-env.js';
import { describeMechanism, limitMechanism, type LimitMechanism } from './command-limits.js';
import type { SandboxLimits } from './limits.js';

/**
 * What `teams doctor` says bounds every command here: its /tmp, its memory and processes and
 * by what mechanism (and why not a better one), and which variables of this environment it gets.
 */
export function describeBounds(limits: SandboxLimits, env: NodeJS.ProcessEnv = process.env, mechanism: LimitMechanism = limitMechanism()): [label: string, text: string][] {
  const passed = passedVariables(env, limits.env);
  const missing = limits.env.filter((name) => env[name] === undefined);
  return [
    ['command /tmp', `${limits.tmp_mb} MB, private to each sandboxed command (none with --no-sandbox: the real /tmp)`],
    ['command limits', describeMechanism(mechanism, limits)],
    ['command environment', `${passed.join(' ') || '(nothing)'}${missing.length > 0 ? ` (named in settings but unset: ${missing.join(' ')})` : ''}; everything else is withheld`],
  ];
}
