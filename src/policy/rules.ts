import { posix } from 'node:path';
import * as z from 'zod';
import { parseBashPattern, showBashPattern, type BashPattern } from './bash-pattern.js';
import { commandTarget } from './command-parts.js';
import { isInside } from './places.js';
import { renamedTool } from './former-tool-names.js';
import { TOOL_CLASSES, type ToolName } from './tool-classes.js';

/**
 * Permission rules in Claude Code's syntax: `Bash(npm test:*)`, `Edit(src/**)` (edit_file and write_file), or a
 * bare tool name for every call of it (bash patterns: bash-pattern.ts). A rule only decides
 * what to ask, and what an approved command may reach: commands still run in the sandbox.
 * Pure: a command is parsed, never run; a path is judged by its text.
 */
export type PermissionRule = { tool: RuleTool; pattern?: string };
/** What a rule names: a tool, or Claude Code's `Edit`, which covers every file-editing tool (edit_file and write_file). */
export type RuleTool = ToolName | typeof EDIT;
export type PermissionRules = {
  allow: readonly PermissionRule[];
  deny: readonly PermissionRule[];
  /** Rules whose calls a human looks at first, over allow rules and the mode (Claude Code's `ask`). */
  ask: readonly PermissionRule[];
  /** Bash rules whose commands may reach the network (matched as allow rules are). */
  network: readonly PermissionRule[];
};

export const NO_RULES: PermissionRules = { allow: [], deny: [], ask: [], network: [] };

const FILE_TOOLS = new Set<string>(['read_file', 'write_file', 'edit_file']);
const EDIT = 'Edit';
const EDITING_TOOLS = new Set<string>(['write_file', 'edit_file']);
const RULE_SHAPE = /^([A-Za-z_]+)(?:\((.*)\))?$/s;

/** Claude Code's names for the tools that have one here; a rule is shown with them (`Bash`, `Read`, `Write`, `Edit`). */
const ALIASES: Record<string, ToolName> = { Bash: 'bash', Read: 'read_file', Write: 'write_file' };
const SHOWN_AS: Partial<Record<RuleTool, string>> = { bash: 'Bash', read_file: 'Read', write_file: 'Write' };

/** A rule's text, or why it is not one (a sentence naming the mistake). */
export function parseRule(text: string): PermissionRule | string {
  const trimmed = text.trim();
  if (trimmed === '') return 'empty rule';
  if (!balanced(trimmed)) return `unbalanced parentheses in '${trimmed}'`;
  const shape = RULE_SHAPE.exec(trimmed);
  if (!shape) return `'${trimmed}' is not a rule: write tool or tool(pattern), e.g. Bash(npm test:*)`;
  const named = shape[1] ?? '';
  if (named === EDIT) return fileRule(EDIT, shape[2], trimmed);
  const tool = Object.hasOwn(ALIASES, named) ? (ALIASES[named] as ToolName) : named;
  const renamed = renamedTool(tool);
  if (renamed) return `${renamed}: write the rule with the new name`;
  if (!Object.hasOwn(TOOL_CLASSES, tool)) return `unknown tool '${tool}' (known: Bash, ${Object.keys(TOOL_CLASSES).join(', ')})`;
  const raw = shape[2];
  if (raw === undefined) return { tool: tool as ToolName };
  const pattern = raw.replace(/\s+/g, ' ').trim();
  if (pattern === '') return `empty pattern in '${trimmed}'; write '${named}' alone to match every call`;
  if (tool === 'bash') {
    const parsed = parseBashPattern(pattern);
    return typeof parsed === 'string' ? parsed : { tool, pattern: showBashPattern(parsed) };
  }
  if (!FILE_TOOLS.has(tool)) return `${tool} takes no pattern; write '${tool}' alone`;
  return filePattern(tool as ToolName, pattern);
}

/** Claude Code's `Edit` rule: one rule for both tools that change a file (appliesTo). */
function fileRule(tool: typeof EDIT, raw: string | undefined, trimmed: string): PermissionRule | string {
  if (raw === undefined) return { tool };
  const pattern = raw.replace(/\s+/g, ' ').trim();
  if (pattern === '') return `empty pattern in '${trimmed}'; write '${tool}' alone to match every call`;
  return filePattern(tool, pattern);
}

function filePattern(tool: RuleTool, pattern: string): PermissionRule | string {
  if (pattern.startsWith('/') || pattern.startsWith('~') || pattern.split('/').includes('..')) {
    return `file pattern '${pattern}' must be relative to the working directory, without '..'`;
  }
  return { tool, pattern };
}

/** Whether a rule speaks of calls of this tool: its own, or, for `Edit`, either file-changing tool. */
export function appliesTo(rule: PermissionRule, tool: string): boolean {
  return rule.tool === tool || (rule.tool === EDIT && EDITING_TOOLS.has(tool));
}

function balanced(text: string): boolean {
  let depth = 0;
  for (const c of text) {
    depth += c === '(' ? 1 : c === ')' ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** A rule as text, in its one spelling (`Bash(npm test:*)`), which parseRule reads back as the same rule. */
export function showRule(rule: PermissionRule): string {
  const tool = SHOWN_AS[rule.tool] ?? rule.tool;
  return rule.pattern === undefined ? tool : `${tool}(${rule.pattern})`;
}

/** A rule read from a file or a command line: zod's error is the sentence parseRule gives. */
export const RuleText = z.string().transform((text, ctx) => {
  const rule = parseRule(text);
  if (typeof rule === 'string') {
    ctx.addIssue({ code: 'custom', message: rule });
    return z.NEVER;
  }
  return rule;
});

/** A network rule: one that says which commands may reach the network, so only a bash rule. */
export const NetworkRuleText = RuleText.refine((rule) => rule.tool === 'bash', {
  error: 'a network rule names bash commands, e.g. Bash(npm install:*)',
});

/** Rules as text in JSON, the way a lead hands them to a teammate it starts (no ask or network list: none). */
export const RulesText = z.object({ allow: z.array(RuleText), deny: z.array(RuleText), ask: z.array(RuleText).default([]), network: z.array(NetworkRuleText).default([]) });

export type RulesAsText = { allow: string[]; deny: string[]; ask: string[]; network: string[] };

export function rulesAsText(rules: PermissionRules): RulesAsText {
  return { allow: rules.allow.map(showRule), deny: rules.deny.map(showRule), ask: rules.ask.map(showRule), network: rules.network.map(showRule) };
}

export type RuleVerdict = {
  denied?: PermissionRule;
  /** An ask rule that matches any part of the call: a human looks first, whatever allows it. */
  asked?: PermissionRule;
  allowed: boolean;
  /** Network rules cover every part of the call (so only ever for bash): it may reach the network. */
  network: boolean;
  /** A deny rule that could not be checked: a command whose name is only known when it runs (`$(echo curl) x`). */
  unchecked?: PermissionRule;
};

export const NO_VERDICT: RuleVerdict = { allowed: false, network: false };

/**
 * What the rules say about one call: a deny or ask rule that matches any part of it, whether
 * allow rules cover all of it, and whether network rules do. The caller (approvals.ts) decides what wins.
 */
export function judgeByRules(rules: PermissionRules, tool: string, input: unknown, cwd: string, realPath?: string): RuleVerdict {
  const forTool = (list: readonly PermissionRule[]) => list.filter((r) => appliesTo(r, tool));
  const deny = forTool(rules.deny);
  const allow = forTool(rules.allow);
  const network = forTool(rules.network);
  const asks = forTool(rules.ask);
  if (deny.length === 0 && allow.length === 0 && network.length === 0 && asks.length === 0) return NO_VERDICT;
  const bare = (list: PermissionRule[]) => list.find((r) => r.pattern === undefined);
  const target = callTarget(tool, input, cwd, realPath);
  const patterns = (list: PermissionRule[]) => list.flatMap((r) => (r.pattern === undefined ? [] : [r.pattern]));
  const covered = (list: PermissionRule[]) => bare(list) !== undefined || target.allowedBy(patterns(list));
  const matching = (list: PermissionRule[]) => bare(list) ?? list.find((r) => r.pattern !== undefined && target.denies(r.pattern));
  const denied = matching(deny);
  const asked = matching(asks);
  const verdict = { allowed: covered(allow), network: covered(network), ...(asked && { asked }) };
  if (denied) return { denied, ...verdict };
  // A command whose program is only known when it runs may be one a deny or ask rule names.
  const unchecked = target.unsure ? (deny[0] ?? asks[0]) : undefined;
  return unchecked ? { ...verdict, unchecked } : verdict;
}

type CallTarget = { denies: (pattern: string) => boolean; allowedBy: (patterns: string[]) => boolean; unsure?: boolean };

const NOTHING: CallTarget = { denies: () => false, allowedBy: () => false };
const BashInput = z.object({ command: z.string() });
const FileInput = z.object({ path: z.string() });

/**
 * `realPath`: where a file path leads once symbolic links are resolved, relative to the real
 * working directory (the harness resolves it; undefined when it leads nowhere inside). A rule
 * must cover both paths: `src/link/x` with `src/link` → `.git/hooks` is not in `src/**`.
 */
function callTarget(tool: string, input: unknown, cwd: string, realPath: string | undefined): CallTarget {
  if (tool === 'bash') {
    const parsed = BashInput.safeParse(input);
    return parsed.success ? bashTarget(parsed.data.command) : NOTHING;
  }
  const parsed = FileInput.safeParse(input);
  if (!FILE_TOOLS.has(tool) || !parsed.success) return NOTHING;
  const absolute = posix.resolve(cwd, parsed.data.path);
  // A path outside the working directory is matched by no file rule: patterns are relative to it.
  if (!isInside(absolute, cwd)) return NOTHING;
  const relative = posix.relative(cwd, absolute);
  const paths = realPath === undefined || realPath === relative ? [relative] : [relative, realPath];
  return {
    denies: (p) => paths.some((path) => globMatches(p, path)),
    allowedBy: (ps) => realPath !== undefined && paths.every((path) => ps.some((p) => globMatches(p, path))),
  };
}

/** A rule's pattern as bash-pattern.ts reads it; undefined (matching nothing) for one parseRule would refuse. */
function bashPattern(text: string): BashPattern | undefined {
  const parsed = parseBashPattern(text);
  return typeof parsed === 'string' ? undefined : parsed;
}

function bashTarget(command: string): CallTarget {
  const target = commandTarget(command);
  const all = (texts: string[]) => texts.flatMap((t) => bashPattern(t) ?? []);
  return {
    unsure: target.unsure,
    denies: (text) => all([text]).some(target.denies),
    allowedBy: (texts) => target.coveredBy(all(texts)),
  };
}

/** `**` any depth (including none), `*` and `?` within one path segment. */
export function globMatches(pattern: string, path: string): boolean {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (pattern.startsWith('**/', i)) {
      source += '(?:.*/)?';
      i += 2;
    } else if (pattern.startsWith('**', i)) {
      source += '.*';
      i += 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's').test(path);
}
