import { posix } from 'node:path';
import * as z from 'zod';
import { nestedScript } from './interpreters.js';
import { isInside } from './places.js';
import { invocation } from './shell-argv.js';
import { parseShell } from './shell-parse.js';
import { ShellSyntaxError, simpleCommands, type Simple } from './shell-syntax.js';
import { TOOL_CLASSES, type ToolName } from './tool-classes.js';

/**
 * Permission rules in Claude Code's syntax: `bash(npm test*)`, `write_file(src/**)`, or a
 * bare tool name for every call of it. A rule only decides what to ask: commands still run
 * in the sandbox. Pure: a command is parsed, never run; a path is judged by its text.
 */
export type PermissionRule = { tool: ToolName; pattern?: string };
export type PermissionRules = { allow: readonly PermissionRule[]; deny: readonly PermissionRule[] };

export const NO_RULES: PermissionRules = { allow: [], deny: [] };

const FILE_TOOLS = new Set<string>(['read_file', 'write_file', 'edit_file']);
const RULE_SHAPE = /^([A-Za-z_]+)(?:\((.*)\))?$/s;

/** A rule's text, or why it is not one (a sentence naming the mistake). */
export function parseRule(text: string): PermissionRule | string {
  const trimmed = text.trim();
  if (trimmed === '') return 'empty rule';
  if (!balanced(trimmed)) return `unbalanced parentheses in '${trimmed}'`;
  const shape = RULE_SHAPE.exec(trimmed);
  if (!shape) return `'${trimmed}' is not a rule: write tool or tool(pattern), e.g. bash(npm test*)`;
  const tool = shape[1] ?? '';
  if (!Object.hasOwn(TOOL_CLASSES, tool)) return `unknown tool '${tool}' (known: ${Object.keys(TOOL_CLASSES).join(', ')})`;
  const raw = shape[2];
  if (raw === undefined) return { tool: tool as ToolName };
  const pattern = raw.replace(/\s+/g, ' ').trim();
  if (pattern === '') return `empty pattern in '${trimmed}'; write '${tool}' alone to match every call`;
  if (tool === 'bash') return { tool, pattern };
  if (!FILE_TOOLS.has(tool)) return `${tool} takes no pattern; write '${tool}' alone`;
  if (pattern.startsWith('/') || pattern.startsWith('~') || pattern.split('/').includes('..')) {
    return `file pattern '${pattern}' must be relative to the working directory, without '..'`;
  }
  return { tool: tool as ToolName, pattern };
}

function balanced(text: string): boolean {
  let depth = 0;
  for (const c of text) {
    depth += c === '(' ? 1 : c === ')' ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** A rule as text, the same way it is written (so that one rule has one spelling). */
export function showRule(rule: PermissionRule): string {
  return rule.pattern === undefined ? rule.tool : `${rule.tool}(${rule.pattern})`;
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

/** Rules as text in JSON, the way a lead hands them to a teammate it starts. */
export const RulesText = z.object({ allow: z.array(RuleText), deny: z.array(RuleText) });

export function rulesAsText(rules: PermissionRules): { allow: string[]; deny: string[] } {
  return { allow: rules.allow.map(showRule), deny: rules.deny.map(showRule) };
}

export type RuleVerdict = {
  denied?: PermissionRule;
  allowed: boolean;
  /** A deny rule that could not be checked: a command whose name is only known when it runs (`$(echo curl) x`). */
  unchecked?: PermissionRule;
  /** Network rules cover the whole command: it may reach the network. */
  network?: boolean;
};

/**
 * What the rules say about one call: a deny rule that matches any part of it, and whether
 * allow rules cover all of it. The caller (approvals.ts) decides what wins.
 */
export function judgeByRules(rules: PermissionRules, tool: string, input: unknown, cwd: string, realPath?: string): RuleVerdict {
  const forTool = (list: readonly PermissionRule[]) => list.filter((r) => r.tool === tool);
  const deny = forTool(rules.deny);
  const allow = forTool(rules.allow);
  if (deny.length === 0 && allow.length === 0) return { allowed: false };
  const bare = (list: PermissionRule[]) => list.find((r) => r.pattern === undefined);
  const target = callTarget(tool, input, cwd, realPath);
  const denied = bare(deny) ?? deny.find((r) => r.pattern !== undefined && target.denies(r.pattern));
  const allowed = bare(allow) !== undefined || target.allowedBy(allow.flatMap((r) => (r.pattern === undefined ? [] : [r.pattern])));
  if (denied) return { denied, allowed };
  const unchecked = target.unsure ? deny[0] : undefined;
  return unchecked ? { allowed, unchecked } : { allowed };
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
    return parsed.success ? commandTarget(parsed.data.command) : NOTHING;
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

/** Writing redirections that only discard or show output, which a rule may still allow. */
const HARMLESS_TARGET = /^\/dev\/(null|stdout|stderr)$/;
const READING_REDIRECTS = new Set(['<', '<<', '<<-', '<<<', 'dup']);

/**
 * A shell command as rules see it: every simple command in it, nested ones (`$( )`, `sh -c`)
 * included. Allowed only when allow rules cover every one of them and none writes to a file
 * by redirection; a command the parser cannot read is never allowed by a rule.
 */
function commandTarget(command: string): CallTarget {
  const whole = normalise(command);
  const parts = commandParts(command, 0);
  return {
    unsure: parts === undefined || parts.some((p) => p.dynamicName),
    denies: (pattern) => textMatches(pattern, whole) || (parts ?? []).some((p) => p.texts.some((t) => textMatches(pattern, t))),
    allowedBy: (patterns) =>
      parts !== undefined && parts.length > 0 && parts.every((p) => p.allowable && patterns.some((pattern) => textMatches(pattern, p.texts[0] ?? ''))),
  };
}

type Part = {
  /** As written (after quote removal), then with assignments and wrappers (`env`, `sudo`) peeled off. */
  texts: string[];
  /** No redirection writes to a file. */
  allowable: boolean;
  /** The program it runs is only known when it runs (`$CMD x`, `$(echo curl) x`). */
  dynamicName: boolean;
};

const MAX_DEPTH = 6;

function commandParts(source: string, depth: number): Part[] | undefined {
  if (depth > MAX_DEPTH) return undefined;
  let simples: Simple[];
  try {
    simples = simpleCommands(parseShell(source));
  } catch (error) {
    if (!(error instanceof ShellSyntaxError)) throw error;
    return undefined;
  }
  const parts: Part[] = [];
  for (const simple of simples) {
    const inv = invocation(simple.words);
    const texts = [normalise(simple.words.map((w) => w.text).join(' ')), normalise([inv.name, ...inv.args.map((w) => w.text)].join(' '))];
    const allowable = simple.redirects.every((r) => READING_REDIRECTS.has(r.op) || HARMLESS_TARGET.test(r.target.text));
    // The word naming the program: the one just before its arguments (none when only assignments were given).
    const name = inv.name === '' ? undefined : simple.words[simple.words.length - inv.args.length - 1];
    parts.push({ texts, allowable, dynamicName: name?.dynamic === true });
    const nested = nestedScript(inv);
    if (nested !== undefined) {
      const inner = commandParts(nested, depth + 1);
      if (inner === undefined) return undefined;
      parts.push(...inner);
    }
  }
  return parts;
}

function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `*` at the end: a prefix; otherwise the whole (whitespace-normalised) text. */
function textMatches(pattern: string, text: string): boolean {
  return pattern.endsWith('*') ? text.startsWith(pattern.slice(0, -1)) : text === pattern;
}
