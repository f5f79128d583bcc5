import { commandDangers } from './danger-rules.js';
import { findExecs, nestedScript, pipesDownloadIntoInterpreter, runsDownloadedArgument } from './interpreters.js';
import { placeOf, resolveWord, type Location } from './places.js';
import { invocation, splitArgs, type Invocation } from './shell-argv.js';
import { parseShell } from './shell-parse.js';
import { ShellSyntaxError, type Redirect, type ShellScript, type Simple, type Word } from './shell-syntax.js';
import { commandTargets, redirectTargets, type PathEffect, type Target } from './write-targets.js';

/**
 * Whether a shell command needs a human's approval, and why, in words shown in the
 * approval prompt ("recursive delete: rm -rf build"). Pure: the command is parsed, never
 * run, and paths are judged by their text against the working directory.
 */
export type CommandAssessment = { dangerous: false } | { dangerous: true; reasons: string[] };
export type AssessOptions = { cwd: string; home?: string };

// `sh -c "eval 'sh -c …'"` deeper than this is not something a model writes in good faith.
const MAX_DEPTH = 6;
const NOUNS: Record<PathEffect, string> = { write: 'write', delete: 'delete', permissions: 'permission change' };

export function assessCommand(command: string, options: AssessOptions): CommandAssessment {
  const reasons = new Set<string>();
  assessSource(command, { root: options.cwd, cwd: options.cwd, home: options.home }, reasons, 0);
  return reasons.size === 0 ? { dangerous: false } : { dangerous: true, reasons: [...reasons] };
}

/** A command as shown in a reason: on one line, and short. */
export function showCommand(source: string): string {
  const line = source.replace(/\\\n/g, ' ').replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

function assessSource(source: string, where: Location, out: Set<string>, depth: number): void {
  if (depth > MAX_DEPTH) {
    out.add(`nested too deeply to check: ${showCommand(source)}`);
    return;
  }
  let script: ShellScript;
  try {
    script = parseShell(source);
  } catch (error) {
    if (!(error instanceof ShellSyntaxError)) throw error;
    out.add(`cannot be checked (${error.message}): ${showCommand(source)}`);
    return;
  }
  assessScript(script, where, out, depth);
}

function assessScript(script: ShellScript, where: Location, out: Set<string>, depth: number): void {
  for (const pipeline of script) {
    if (pipesDownloadIntoInterpreter(pipeline)) out.add(`download piped into a shell: ${showCommand(pipeline.source)}`);
    const alone = pipeline.commands.length === 1;
    for (const command of pipeline.commands) {
      // Each stage of a longer pipeline runs in a subshell: its `cd` does not outlive it.
      const here = alone ? where : { ...where };
      assessRedirects(command.redirects, command.source, here, out, depth);
      if (command.type === 'simple') assessSimple(command, here, out, depth);
      else assessScript(command.body, command.source.startsWith('(') ? { ...here } : here, out, depth);
    }
  }
}

function assessWords(words: readonly Word[], where: Location, out: Set<string>, depth: number): void {
  for (const word of words) {
    for (const sub of word.subs) assessScript(sub, { ...where }, out, depth);
    if (word.process) assessScript(word.process, { ...where }, out, depth);
  }
}

function assessRedirects(redirects: readonly Redirect[], source: string, where: Location, out: Set<string>, depth: number): void {
  assessWords(redirects.flatMap((r) => (r.body ? [r.target, r.body] : [r.target])), where, out, depth);
  assessTargets(redirectTargets(redirects), source, where, out);
}

function assessSimple(command: Simple, where: Location, out: Set<string>, depth: number): void {
  assessWords(command.words, where, out, depth);
  const inv = invocation(command.words);
  if (['cd', 'pushd', 'popd'].includes(inv.name) && inv.wrappers.length === 0) where.cwd = changeDirectory(inv, where);
  else assessInvocation(inv, command.source, where, out, depth);
}

function assessInvocation(inv: Invocation, source: string, where: Location, out: Set<string>, depth: number): void {
  for (const label of commandDangers(inv)) out.add(`${label}: ${showCommand(source)}`);
  assessTargets(commandTargets(inv), source, where, out);
  if (runsDownloadedArgument(inv)) out.add(`runs downloaded code: ${showCommand(source)}`);
  const nested = nestedScript(inv);
  if (nested !== undefined) assessSource(nested, { ...where }, out, depth + 1);
  for (const exec of findExecs(inv)) assessInvocation(invocation(exec), source, { ...where }, out, depth + 1);
}

function assessTargets(targets: readonly Target[], source: string, where: Location, out: Set<string>): void {
  for (const { effect, word } of targets) {
    const place = placeOf(word, where);
    if (place === 'outside') out.add(`${NOUNS[effect]} outside the working directory: ${showCommand(source)}`);
    if (place === 'unknown') out.add(`${NOUNS[effect]} at a path only known when it runs: ${showCommand(source)}`);
  }
}

/** The shell's directory after `cd`, undefined when that cannot be known from the text. */
function changeDirectory(inv: Invocation, where: Location): string | undefined {
  if (inv.name === 'popd') return undefined;
  const target = splitArgs(inv.args).operands[0];
  if (target === undefined) return where.home;
  if (target.text === '-' || /^[+-]\d+$/.test(target.text)) return undefined;
  return resolveWord(target, where);
}
