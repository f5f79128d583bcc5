import { coversCommand, matchesText, matchesWords, type BashPattern } from './bash-pattern.js';
import { findExecs, nestedScript } from './interpreters.js';
import { invocation } from './shell-argv.js';
import { parseShell } from './shell-parse.js';
import { literalWord, ShellSyntaxError, simpleCommands, type Redirect, type Simple, type Word } from './shell-syntax.js';

/**
 * A shell command as bash rules see it: every simple command in it, nested ones (`$( )`,
 * `sh -c`, `find -exec`) included. Covered by allow rules only when they cover every one of
 * them and none writes to a file by redirection; a command the parser cannot read is never
 * covered. A deny rule matches when it matches any part, or the whole command's text.
 */
export type CommandTarget = {
  denies: (pattern: BashPattern) => boolean;
  coveredBy: (patterns: readonly BashPattern[]) => boolean;
  /** Some part's program is only known when it runs: deny rules cannot be checked against it. */
  unsure: boolean;
};

export function commandTarget(command: string): CommandTarget {
  const whole = normalise(command);
  const parts = commandParts(command, 0);
  return {
    unsure: parts === undefined || parts.some((p) => p.dynamicName),
    denies: (pattern) => matchesText(pattern, whole) || (parts ?? []).some((p) => matchesWords(pattern, p.words) || matchesWords(pattern, p.peeled)),
    coveredBy: (patterns) =>
      parts !== undefined && parts.length > 0 && parts.every((p) => p.allowable && patterns.some((pattern) => coversCommand(pattern, p.words))),
  };
}

type Part = {
  /** As written (after quote removal). */
  words: Word[];
  /** With assignments and wrappers (`env`, `sudo`) peeled off, the program by its base name. */
  peeled: Word[];
  /** No redirection writes to a file. */
  allowable: boolean;
  /** The program it runs is only known when it runs (`$CMD x`, `$(echo curl) x`). */
  dynamicName: boolean;
};

/** Writing redirections that only discard or show output, which a rule may still allow. */
const HARMLESS_TARGET = /^\/dev\/(null|stdout|stderr)$/;
const READING_REDIRECTS = new Set(['<', '<<', '<<-', '<<<', 'dup']);
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
    const more = partsOf(simple.words, simple.redirects, depth);
    if (more === undefined) return undefined;
    parts.push(...more);
  }
  return parts;
}

/** One simple command, then what it runs: its `sh -c` script, its `find -exec` commands. */
function partsOf(words: Word[], redirects: readonly Redirect[], depth: number): Part[] | undefined {
  const inv = invocation(words);
  const allowable = redirectsAllowable(redirects);
  // The word naming the program: the one just before its arguments (none when only assignments were given).
  const name = inv.name === '' ? undefined : words[words.length - inv.args.length - 1];
  const parts: Part[] = [{ words, peeled: [literalWord(inv.name), ...inv.args], allowable, dynamicName: name?.dynamic === true }];
  const nested = nestedScript(inv);
  if (nested !== undefined) {
    const inner = commandParts(nested, depth + 1);
    if (inner === undefined) return undefined;
    parts.push(...inner);
  }
  for (const exec of findExecs(inv)) {
    const inner = depth < MAX_DEPTH ? partsOf(exec, [], depth + 1) : undefined;
    if (inner === undefined) return undefined;
    parts.push(...inner);
  }
  return parts;
}

/** No redirection writes to a file (reading, `2>&1`, `> /dev/null` may stay): a rule may cover the command. */
export function redirectsAllowable(redirects: readonly Redirect[]): boolean {
  return redirects.every((r) => READING_REDIRECTS.has(r.op) || HARMLESS_TARGET.test(r.target.text));
}

function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
