import { posix } from 'node:path';
import * as z from 'zod';
import { redirectsAllowable } from './command-parts.js';
import { commandDangers } from './danger-rules.js';
import { findExecs, nestedScript, runsCode } from './interpreters.js';
import { isInside } from './places.js';
import { parseRule, showRule } from './rules.js';
import { invocation, type Invocation } from './shell-argv.js';
import { parseShell } from './shell-parse.js';
import { ShellSyntaxError, type Simple, type Word } from './shell-syntax.js';
import { commandTargets } from './write-targets.js';

const BashInput = z.object({ command: z.string() });
const FileInput = z.object({ path: z.string() });
/** A second word read as a subcommand (`npm test`, `git commit`), not an option or a file. */
const SUBCOMMAND = /^[a-z][a-z0-9-]*$/;

/**
 * The allow rule the approval queue offers for one call, for the human to edit before it is
 * saved: the narrowest rule that still serves again. For a command: the exact command,
 * `Bash(npm test -- --watch)`, except that trailing arguments after the program and its
 * subcommand become `:*`, `Bash(git commit -m:*)`, `Bash(npm install:*)`; a destructive
 * command (danger-rules.ts, write-targets.ts), one that runs code it is given (`python x.py`)
 * or one with expansions gets the exact command: never `Bash(rm:*)`. For a written or edited
 * file: its directory, `Edit(src/**)` (either tool that changes files) or `Read(src/**)`. Undefined when no one rule covers the call: a path
 * outside the working directory, `a && b`, `$(…)`, `sh -c …`, `find -exec`, a write by redirection. Pure; the text is checked by parseRule when confirmed.
 */
export function suggestRule(tool: string, input: unknown, cwd: string): string | undefined {
  const text = suggestion(tool, input, cwd);
  // The text comes from an agent's call and is shown in an editable line: no terminal controls in it.
  return text === undefined || CONTROL.test(text) ? undefined : text;
}

// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function suggestion(tool: string, input: unknown, cwd: string): string | undefined {
  if (tool === 'bash') {
    const parsed = BashInput.safeParse(input);
    return parsed.success ? commandSuggestion(parsed.data.command) : undefined;
  }
  if (tool !== 'write_file' && tool !== 'edit_file' && tool !== 'read_file') return tool;
  const parsed = FileInput.safeParse(input);
  if (!parsed.success) return undefined;
  const absolute = posix.resolve(cwd, parsed.data.path);
  if (!isInside(absolute, cwd) || absolute === posix.resolve(cwd)) return undefined;
  const dir = posix.dirname(posix.relative(cwd, absolute));
  // Claude Code's names: `Edit` covers both tools that change a file, `Read` reads one.
  const named = tool === 'read_file' ? 'Read' : 'Edit';
  // A file at the top: the file itself, since `**` there would be every file of the project.
  return dir === '.' ? `${named}(${posix.relative(cwd, absolute)})` : `${named}(${dir}/**)`;
}

function commandSuggestion(command: string): string | undefined {
  const simple = onlySimple(command);
  // No rule covers a command that writes by redirection or runs another inside it (`$(…)`).
  if (simple === undefined || simple.words.length === 0 || !redirectsAllowable(simple.redirects)) return undefined;
  const words = simple.words;
  if (words.some((w) => w.subs.length > 0 || w.process !== undefined)) return undefined;
  const inv = invocation(words);
  // What `sh -c` or `find -exec` runs is a part of its own, which one rule for the whole cannot cover.
  if (nestedScript(inv) !== undefined || findExecs(inv).length > 0) return undefined;
  const exact = words[0]?.text !== inv.name || runsCode(inv) || destructive(inv) || words.some((w) => w.dynamic);
  if (exact) return asRule(words, false);
  // Arguments after the program and its subcommand, back to the last option: the part that changes.
  const head = words.length > 1 && SUBCOMMAND.test(words[1]?.text ?? '') ? 2 : 1;
  let keep = words.length;
  while (keep > head && !(words[keep - 1] as Word).text.startsWith('-')) keep--;
  return asRule(words.slice(0, keep), keep < words.length);
}

/** The command's one simple command, or undefined for a list, a pipeline, a group or one the parser cannot read. */
function onlySimple(command: string): Simple | undefined {
  try {
    const script = parseShell(command);
    const first = script[0]?.commands[0];
    return script.length === 1 && script[0]?.commands.length === 1 && first?.type === 'simple' ? first : undefined;
  } catch (error) {
    if (!(error instanceof ShellSyntaxError)) throw error;
    return undefined;
  }
}

function destructive(inv: Invocation): boolean {
  return commandDangers(inv).length > 0 || commandTargets(inv).length > 0;
}

/** The rule's one spelling, once parseRule has read it back; undefined when it cannot be written as a rule. */
function asRule(words: readonly Word[], prefix: boolean): string | undefined {
  const text = `Bash(${words.map((w) => quoted(w.text)).join(' ')}${prefix ? ':*' : ''})`;
  const rule = parseRule(text);
  return typeof rule === 'string' ? undefined : showRule(rule);
}

/** A word as the shell reads it back: plain when it can be, else in single quotes. */
function quoted(text: string): string {
  return /^[A-Za-z0-9_@%+=,./:-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
