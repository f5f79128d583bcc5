import { posix } from 'node:path';
import * as z from 'zod';
import type { PermissionMode } from '../protocol/messages.js';
import { semanticBoolean } from '../protocol/semantic-boolean.js';
import { assessCommand, showCommand } from './dangerous.js';
import { isGitPath, isInside } from './places.js';
import { isReadOnlyCommand } from './read-only.js';
import { judgeByRules, NO_VERDICT, showRule, type PermissionRules, type RuleVerdict } from './rules.js';
import { isReadOnlyTool, toolClass } from './tool-classes.js';

/**
 * Whether a tool call runs, needs a human's approval, or is refused, under a permission
 * mode (seed 000). Pure: the harness asks, keeps the calls approved "always" and passes them
 * back in `alwaysAllowed`. An `ask` or `deny` reason is read by a human in the approval prompt
 * or by the model in the tool result, so it names the exact thing at stake.
 */
export type ToolUse = {
  tool: string;
  /** The model's raw input: the policy reads only the fields it judges by. */
  input: unknown;
  mode: PermissionMode;
  cwd: string;
  /** Plan mode ends once the plan is approved; from then on the call is judged as in `default`. */
  planApproved: boolean;
  /** Calls a human approved "always" for this session, as `alwaysKey` names them. */
  alwaysAllowed: ReadonlySet<string>;
  /** The home directory, so that `~/x` can be placed; without it `~` counts as outside. */
  home?: string;
  /** The project's allow and deny rules (rules.ts), as the lead handed them over; none when absent. */
  rules?: PermissionRules;
  /**
   * For a file tool: where its path leads once symbolic links are resolved, relative to the real
   * working directory, as the harness found it (undefined: outside or unknown). A file allow
   * rule covers a call only when it covers this path too.
   */
  realPath?: string;
};

export type ToolDecision = { action: 'allow' } | { action: 'ask'; reason: string } | { action: 'deny'; reason: string };

const ALLOW: ToolDecision = { action: 'allow' };

// Looser than the tools' own schemas: input these cannot read is refused by the tool before
// anything runs, so allowing it here lets the model see the tool's precise input error.
const ShellInput = z.object({ command: z.string() });
const FileInput = z.object({ path: z.string(), content: z.string().optional() });
const SpawnInput = z.object({ plan_mode: semanticBoolean.optional() });

/**
 * A tool call as "always" matches it: the same tool with exactly the same input. Any other
 * input (an extra flag, another path) is a different call and is asked about again.
 */
export function alwaysKey(tool: string, input: unknown): string {
  return `${tool} ${JSON.stringify(input)}`;
}

/**
 * The order, first that applies wins:
 * 1. `bypass` allows everything.
 * 2. Plan mode before its plan is approved stays read-only: no rule or grant lifts it (a deny
 *    rule may still refuse a read-only call).
 * 3. A deny rule matching any part of the call refuses it, over "always" grants and allow rules.
 * 4. A file write or edit into a `.git` directory (by its path or where its symbolic links lead)
 *    asks, whatever the mode, the allow rules or "always" say: git runs that directory's hooks
 *    and config as the human, outside the sandbox.
 * 5. The mode decides; its `ask` becomes `allow` when an allow rule covers the whole call or a
 *    human approved exactly this call "always". Its `deny` stays a deny. A command that deny
 *    rules cannot be checked against (its program only known when it runs) asks, whatever the
 *    mode or the allow rules say, unless approved "always".
 */
export function decideToolUse(use: ToolUse): ToolDecision {
  if (use.mode === 'bypass') return ALLOW;
  const verdict: RuleVerdict = use.rules ? judgeByRules(use.rules, use.tool, use.input, use.cwd, use.realPath) : NO_VERDICT;
  const denied = verdict.denied && { action: 'deny' as const, reason: `${use.tool} is denied by the rule ${showRule(verdict.denied)}` };
  if (use.mode === 'plan' && !use.planApproved) return denied ?? decideInPlanMode(use);
  if (denied) return denied;
  const git = gitDirWrite(use);
  if (git) return git;
  const decision = decideOutsidePlan(use);
  // Only a question is answered by a rule or "always"; a refusal stays one.
  if (decision.action === 'deny') return decision;
  const always = use.alwaysAllowed.has(alwaysKey(use.tool, use.input));
  if (verdict.unchecked && !always) {
    const command = ShellInput.safeParse(use.input);
    const shown = command.success ? showCommand(command.data.command) : use.tool;
    return { action: 'ask', reason: `cannot be checked against the deny rule ${showRule(verdict.unchecked)} (the program is only known when it runs): ${shown}` };
  }
  if (decision.action === 'allow') return decision;
  return verdict.allowed || always ? ALLOW : decision;
}

function decideOutsidePlan(use: ToolUse): ToolDecision {
  switch (toolClass(use.tool)) {
    case 'shell':
      return decideShell(use);
    case 'edit':
      return decideEdit(use, use.mode === 'accept-edits');
    case undefined:
      return { action: 'ask', reason: `unknown tool '${use.tool}'` };
    // Listed, not a default: a new tool class must be judged here before it runs unasked.
    case 'read':
    case 'message':
    case 'protocol':
    case 'spawn':
      return ALLOW;
  }
}

function planDenial(what: string): ToolDecision {
  return {
    action: 'deny',
    reason: `plan mode: ${what} is not allowed until your plan is approved. Only read-only tools and read-only commands run now; submit your plan with plan_approval first.`,
  };
}

function decideInPlanMode(use: ToolUse): ToolDecision {
  if (isReadOnlyTool(use.tool)) return ALLOW;
  const cls = toolClass(use.tool);
  if (cls === 'shell') {
    const input = ShellInput.safeParse(use.input);
    if (!input.success || isReadOnlyCommand(input.data.command)) return ALLOW;
    return planDenial(`\`${showCommand(input.data.command)}\` (not a read-only command)`);
  }
  if (cls === 'spawn') {
    // A teammate that itself starts in plan mode changes nothing before a plan is approved.
    const input = SpawnInput.safeParse(use.input);
    if (!input.success || input.data.plan_mode === true) return ALLOW;
    return planDenial('spawn_teammate without plan_mode: true');
  }
  return planDenial(cls === 'edit' ? `${use.tool} (it changes files)` : `${use.tool}`);
}

function decideShell(use: ToolUse): ToolDecision {
  const input = ShellInput.safeParse(use.input);
  if (!input.success) return ALLOW;
  const assessment = assessCommand(input.data.command, { cwd: use.cwd, home: use.home });
  return assessment.dangerous ? { action: 'ask', reason: assessment.reasons.join('; ') } : ALLOW;
}

/** The question a file write or edit into a `.git` directory gets; undefined for any other call. */
function gitDirWrite(use: ToolUse): ToolDecision | undefined {
  if (toolClass(use.tool) !== 'edit') return undefined;
  const input = FileInput.safeParse(use.input);
  if (!input.success) return undefined;
  const absolute = posix.resolve(use.cwd, input.data.path);
  // Outside the working directory decideEdit refuses it anyway.
  if (!isInside(absolute, use.cwd)) return undefined;
  const named = isGitPath(posix.relative(use.cwd, absolute));
  const linked = !named && use.realPath !== undefined && isGitPath(use.realPath);
  if (!named && !linked) return undefined;
  const through = linked ? ` (through a symbolic link to ${use.realPath})` : '';
  return {
    action: 'ask',
    reason: `${use.tool === 'write_file' ? 'write' : 'edit'} ${input.data.path}${through}: it is in a .git directory, whose hooks and config git runs outside the sandbox; no mode, rule or "always" allows it unasked`,
  };
}

function decideEdit(use: ToolUse, editsAccepted: boolean): ToolDecision {
  const input = FileInput.safeParse(use.input);
  if (!input.success) return ALLOW;
  const { path, content } = input.data;
  // The file tools refuse such a path anyway; refusing here spares a human a pointless prompt.
  if (!isInside(posix.resolve(use.cwd, path), use.cwd)) {
    return { action: 'deny', reason: `path '${path}' is outside the working directory ${use.cwd}; file tools only work inside it` };
  }
  if (editsAccepted) return ALLOW;
  if (use.tool !== 'write_file' || content === undefined) return { action: 'ask', reason: `edit ${path}` };
  const lines = content === '' ? 0 : content.replace(/\n$/, '').split('\n').length;
  return { action: 'ask', reason: `write ${path} (${lines} line${lines === 1 ? '' : 's'})` };
}
