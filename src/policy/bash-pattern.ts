import { commandDangers } from './danger-rules.js';
import { invocation } from './shell-argv.js';
import { parseShell } from './shell-parse.js';
import { ShellSyntaxError, simpleCommands, type Word } from './shell-syntax.js';
import { commandTargets } from './write-targets.js';

/**
 * A bash rule's pattern, in Claude Code's syntax, matched word by word (words after quote
 * removal, so a match always ends at a word boundary):
 *   `npm test`    exactly that command;
 *   `npm test:*`  `npm test` alone or followed by more words: `npm test -- --watch`, never `npm tests`;
 *   `npm test*`, `npm test *`  this project's older spelling, still read, meaning `npm test:*`
 *                 (so `rm*` never covers `rmdir`); shown and saved as `npm test:*`;
 *   `*`           every command the parser can read.
 * A `*` anywhere else is refused: it would read as a literal star, and a deny rule written with
 * one in mind would silently match nothing.
 */
export type BashPattern = {
  /** The fixed part, whitespace-normalised, as written: what a deny rule matches against a whole command. */
  text: string;
  /** The fixed part's words when it is one simple command; undefined for `a && b` (such a pattern only denies). */
  words: readonly Word[] | undefined;
  /** `:*`: more words may follow the fixed ones. */
  prefix: boolean;
};

/** A pattern's text (from parseRule, already trimmed and whitespace-normalised), or why it is not one. */
export function parseBashPattern(pattern: string): BashPattern | string {
  const prefix = pattern.endsWith('*');
  const fixed = (pattern.endsWith(':*') ? pattern.slice(0, -2) : prefix ? pattern.slice(0, -1) : pattern).trim();
  if (fixed === '') return prefix ? { text: '', words: [], prefix } : 'empty pattern';
  let simples;
  try {
    simples = simpleCommands(parseShell(fixed));
  } catch (error) {
    if (!(error instanceof ShellSyntaxError)) throw error;
    return `'${pattern}' is not a command the shell can read (${error.message})`;
  }
  if (simples.some((s) => s.words.some((w) => w.glob && w.text.includes('*')))) {
    return `'${pattern}': a '*' matches only at the end of a bash pattern, written ':*' (e.g. Bash(git push:*)); quote a literal star`;
  }
  const only = simples.length === 1 && simples[0]?.redirects.length === 0 ? simples[0] : undefined;
  return { text: fixed, words: only?.words, prefix };
}

/** The one spelling of a pattern: `npm test:*`, `npm test`, or `*`. */
export function showBashPattern(pattern: BashPattern): string {
  if (!pattern.prefix) return pattern.text;
  return pattern.text === '' ? '*' : `${pattern.text}:*`;
}

/** Word by word: the fixed words, then (with `:*`) anything or nothing. */
export function matchesWords(pattern: BashPattern, words: readonly Word[]): boolean {
  const fixed = pattern.words;
  if (fixed === undefined) return false;
  if (pattern.prefix ? words.length < fixed.length : words.length !== fixed.length) return false;
  return fixed.every((w, i) => w.text === words[i]?.text);
}

/** A whole command's (normalised) text against the fixed text, at a word boundary: for deny rules only. */
export function matchesText(pattern: BashPattern, text: string): boolean {
  if (!pattern.prefix) return text === pattern.text;
  return pattern.text === '' || text === pattern.text || text.startsWith(`${pattern.text} `);
}

/**
 * Whether an allow (or network) rule covers one simple command. Past the word match, a
 * destructive command (one the danger rules name, or one that writes, deletes or changes the
 * permissions of a path it names: danger-rules.ts, write-targets.ts) is covered by a `:*`
 * only when the words the rule did not name are all plain options (`-v`, `--force=…`: no
 * operand, no `--`, nothing expanded at run time) and they add no danger and no target the
 * fixed words lacked. So `Bash(rm -rf build/cache:*)` covers `rm -rf build/cache -v` but not
 * `rm -rf build/cache src`, and `Bash(git push:*)` does not cover `git push --force`.
 */
export function coversCommand(pattern: BashPattern, words: readonly Word[]): boolean {
  if (!matchesWords(pattern, words)) return false;
  const fixed = pattern.words ?? [];
  if (words.length === fixed.length) return true;
  const whole = harm(words);
  if (whole.size === 0) return true;
  if (!words.slice(fixed.length).every(isPlainOption)) return false;
  const named = harm(fixed);
  return [...whole].every((h) => named.has(h));
}

/** What a command does that makes it destructive, each as one comparable string. */
function harm(words: readonly Word[]): Set<string> {
  const inv = invocation(words);
  return new Set([...commandDangers(inv), ...commandTargets(inv).map((t) => `${t.effect} ${t.word.text}`)]);
}

function isPlainOption(word: Word): boolean {
  return /^-./.test(word.text) && word.text !== '--' && !word.dynamic && !word.glob && word.subs.length === 0 && word.process === undefined;
}
