import * as z from 'zod';
import { semanticBoolean } from '../protocol/index.js';
import { judgeByRules, NO_RULES, type PermissionRule, type PermissionRules } from './rules.js';
import { toolClass } from './tool-classes.js';

/** A command is judged by its words alone: the working directory plays no part. */
const ANY_CWD = '/';
const ShellInput = z.object({ command: z.string(), network: semanticBoolean.optional() });

/**
 * Whether a rule the human just saved (an allow rule, and a network rule too when `network`)
 * answers another pending permission request as approving it would: a command it covers whole,
 * the network only when the rule covers that too, and no deny or ask rule in force speaking of
 * any part of it. Only commands: a bash rule reads the command alone, where a file rule is
 * judged against the asker's working directory and where its links lead, which only the asker
 * sees, so a file request waits for its own answer. Pure.
 */
export function ruleSettles(rule: PermissionRule, network: boolean, inForce: PermissionRules, tool: string, input: unknown): boolean {
  if (toolClass(tool) !== 'shell') return false;
  const call = ShellInput.safeParse(input);
  if (!call.success) return false;
  const saved = judgeByRules({ ...NO_RULES, allow: [rule], network: network ? [rule] : [] }, tool, input, ANY_CWD);
  if (!saved.allowed || (call.data.network === true && !saved.network)) return false;
  const all = judgeByRules(inForce, tool, input, ANY_CWD);
  return all.denied === undefined && all.asked === undefined && all.unchecked === undefined;
}
