import { posix } from 'node:path';
import * as z from 'zod';
import { type PermissionMode, semanticBoolean } from '../protocol/index.js';
import { describeGrant, FULL_GRANT, READ_ONLY_GRANT, type CommandGrant } from './grant.js';
import { assessCommand, showCommand } from './dangerous.js';
import { isGitPath, isInside } from './places.js';
import { isReadOnlyCommand } from './read-only.js';
import { judgeByRules, NO_VERDICT, showRule, type PermissionRules, type RuleVerdict } from './rules.js';
import { renamedTool } from './former-tool-names.js';
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

/**
 * `grant`: what the call's command may do when it runs (allow) or once approved (ask); the
 * sandbox enforces it. Only a shell call's grant matters; other tools get the read-only one.
 */
export type ToolDecision = { action: 'allow'; grant: CommandGrant } | { action: 'ask'; reason: string; grant: CommandGrant } | { action: 'deny'; reason: string };
type Asked = Extract<ToolDecision, { action: 'ask' }>;

const ALLOW: ToolDecision = { action: 'allow', grant: READ_ONLY_GRANT };

// Looser than the tools' own schemas: input these cannot read is refused by the tool before
// anything runs, so allowing it here lets the model see the tool's precise input error.
const ShellInput = z.object({ command: z.string(), write: semanticBoolean.optional(), network: semanticBoolean.optional() });
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
 * What a shell call gets once the human approves it: the working directory writable, and the
 * network when the call asked for it. Pure, so the prompt that asks shows what it will grant.
 */
export function grantOnApproval(tool: string, input: unknown): CommandGrant {
  if (toolClass(tool) !== 'shell') return READ_ONLY_GRANT;
  const shell = ShellInput.safeParse(input);
  return { write: true, network: shell.success && shell.data.network === true };
}

/** A question; for a command, its reason says what the command gets once approved, so the human knows what a yes grants. */
function ask(use: ToolUse, reason: string): Asked {
  const grant = grantOnApproval(use.tool, use.input);
  const shown = toolClass(use.tool) === 'shell' ? `${reason} (if approved: ${describeGrant(grant)})` : reason;
  return { action: 'ask', reason: shown, grant };
}

/**
 * The order, first that applies wins:
 * 1. `bypass` allows everything, with write and network.
 * 2. Plan mode before its plan is approved stays read-only: no rule or grant lifts it (a deny
 *    rule may still refuse a read-only call).
 * 3. A deny rule matching any part of the call refuses it, over "always" grants and allow rules.
 * 4. A file write or edit into a `.git` directory (by its path or where its symbolic links lead)
 *    asks, whatever the mode, the allow rules or "always" say: git runs that directory's hooks
 *    and config as the human, outside the sandbox.
 * 5. The mode decides; its `ask` becomes `allow` when an allow rule covers the whole call or a
 *    human approved exactly this call "always". Its `deny` stays a deny. A command that deny
 *    or ask rules cannot be checked against (its program only known when it runs) asks, whatever
 *    the mode or the allow rules say, unless approved "always".
 * 6. An ask rule matching any part of a call that 1–5 would let run turns it into a question,
 *    over allow rules, the mode and "always" (Claude Code's `ask`); approved, the call gets what
 *    it would have had without the rule, so the rule adds a look and never a power.
 *
 * A shell command that runs without anyone's approval runs read-only and offline whatever the
 * parser thought of it (the parser only decides what to ask); approved "always" or covered by
 * an allow rule, it may write, and reach the network only as the approval or a network rule says.
 */
export function decideToolUse(use: ToolUse): ToolDecision {
  if (use.mode === 'bypass') return { action: 'allow', grant: FULL_GRANT };
  const verdict: RuleVerdict = use.rules ? judgeByRules(use.rules, use.tool, use.input, use.cwd, use.realPath) : NO_VERDICT;
  const decision = decideByRules(use, verdict);
  if (decision.action !== 'allow' || verdict.asked === undefined) return decision;
  return { action: 'ask', reason: `the rule ${showRule(verdict.asked)} asks first: ${describeCall(use)}`, grant: decision.grant };
}

function decideByRules(use: ToolUse, verdict: RuleVerdict): ToolDecision {
  const renamed = renamedTool(use.tool);
  if (renamed) return { action: 'deny', reason: `${renamed}; call that instead` };
  const denied = verdict.denied && { action: 'deny' as const, reason: `${use.tool} is denied by the rule ${showRule(verdict.denied)}` };
  if (use.mode === 'plan' && !use.planApproved) return denied ?? decideInPlanMode(use);
  if (denied) return denied;
  const git = gitDirWrite(use);
  if (git) return git;
  const decision = decideOutsidePlan(use);
  // Only a question is answered by a rule or "always"; a refusal stays one.
  if (decision.action === 'deny') return decision;
  const always = use.alwaysAllowed.has(alwaysKey(use.tool, use.input));
  if (always) return { action: 'allow', grant: grantOnApproval(use.tool, use.input) };
  if (verdict.unchecked) {
    return ask(use, `cannot be checked against the ${use.rules?.deny.includes(verdict.unchecked) ? 'deny' : 'ask'} rule ${showRule(verdict.unchecked)} (the program is only known when it runs): ${describeCall(use)}`);
  }
  if (toolClass(use.tool) === 'shell') return verdict.allowed ? decideRuledShell(use, verdict) : decision;
  if (decision.action === 'allow') return decision;
  return verdict.allowed ? ALLOW : decision;
}

/** A call as a question names it: the command, or the tool and its path. */
function describeCall(use: ToolUse): string {
  const command = ShellInput.safeParse(use.input);
  if (command.success) return showCommand(command.data.command);
  const file = FileInput.safeParse(use.input);
  return file.success ? `${use.tool} ${file.data.path}` : use.tool;
}

/** A command the allow rules cover: it may write; the network only when network rules cover it too. */
function decideRuledShell(use: ToolUse, verdict: RuleVerdict): ToolDecision {
  const input = ShellInput.safeParse(use.input);
  const network = verdict.network;
  if (input.success && input.data.network === true && !network) {
    return ask(use, `network for \`${showCommand(input.data.command)}\`: an allow rule covers the command, but no network rule does`);
  }
  return { action: 'allow', grant: { write: true, network } };
}

function decideOutsidePlan(use: ToolUse): ToolDecision {
  switch (toolClass(use.tool)) {
    case 'shell':
      return decideShell(use);
    case 'edit':
      return decideEdit(use, use.mode === 'accept-edits');
    case undefined:
      return ask(use, `unknown tool '${use.tool}'`);
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
    reason: `plan mode: ${what} is not allowed until your plan is approved. Only read-only tools and read-only commands run now; submit your plan with plan_approval_request first.`,
  };
}

function decideInPlanMode(use: ToolUse): ToolDecision {
  if (isReadOnlyTool(use.tool)) return ALLOW;
  const cls = toolClass(use.tool);
  if (cls === 'shell') {
    const input = ShellInput.safeParse(use.input);
    if (!input.success) return ALLOW;
    const shown = `\`${showCommand(input.data.command)}\``;
    if (input.data.write === true || input.data.network === true) return planDenial(`${shown} with ${input.data.write === true ? 'write' : 'network'}`);
    if (isReadOnlyCommand(input.data.command)) return ALLOW;
    return planDenial(`${shown} (not a read-only command)`);
  }
  if (cls === 'spawn') {
    // A teammate that itself starts in plan mode changes nothing before a plan is approved.
    const input = SpawnInput.safeParse(use.input);
    if (!input.success || input.data.plan_mode === true) return ALLOW;
    return planDenial('spawn_teammate without plan_mode: true');
  }
  return planDenial(cls === 'edit' ? `${use.tool} (it changes files)` : `${use.tool}`);
}

/**
 * Unasked, a command runs read-only and offline: the parser's verdict only decides whether a
 * human looks first. One that asks for write or network asks, dangerous or not.
 */
function decideShell(use: ToolUse): ToolDecision {
  const input = ShellInput.safeParse(use.input);
  if (!input.success) return ALLOW;
  const assessment = assessCommand(input.data.command, { cwd: use.cwd, home: use.home });
  if (assessment.dangerous) return ask(use, assessment.reasons.join('; '));
  const wanted = [input.data.write === true ? 'write the working directory' : '', input.data.network === true ? 'reach the network' : ''].filter(Boolean);
  if (wanted.length > 0) return ask(use, `\`${showCommand(input.data.command)}\` asks to ${wanted.join(' and ')}`);
  return ALLOW;
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
  return ask(
    use,
    `${use.tool === 'write_file' ? 'write' : 'edit'} ${input.data.path}${through}: it is in a .git directory, whose hooks and config git runs outside the sandbox; no mode, rule or "always" allows it unasked`,
  );
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
  if (use.tool !== 'write_file' || content === undefined) return ask(use, `edit ${path}`);
  const lines = content === '' ? 0 : content.replace(/\n$/, '').split('\n').length;
  return ask(use, `write ${path} (${lines} line${lines === 1 ? '' : 's'})`);
}
