import { hasFlag, invocation, splitArgs, type Invocation } from './shell-argv.js';
import { simpleCommands, type Pipeline, type ShellScript, type Word } from './shell-syntax.js';

/**
 * Commands that run code given to them as data: shells, script interpreters, `eval`,
 * `source`, `find -exec`. The policy follows what they run, and flags code that is
 * downloaded and run in one go (`curl … | sh`, `bash <(curl …)`, `sh -c "$(curl …)"`).
 */

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish']);
const SCRIPTERS = /^(python[0-9.]*|perl|ruby|node|php|deno|bun)$/;
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https']);
const STDIN = new Set(['-', '/dev/stdin', '/proc/self/fd/0']);

export function isShell(name: string): boolean {
  return SHELLS.has(name);
}

/** Shells, script interpreters, `eval` and `source`: programs whose arguments or input are code. */
export function runsCode(inv: Invocation): boolean {
  return SHELLS.has(inv.name) || SCRIPTERS.test(inv.name) || ['eval', 'source', '.'].includes(inv.name);
}

/** Whether the command executes what arrives on its standard input. */
function runsStdin(inv: Invocation): boolean {
  if (inv.name === 'source' || inv.name === '.') return STDIN.has(inv.args[0]?.text ?? '');
  const shell = SHELLS.has(inv.name);
  if (!shell && !SCRIPTERS.test(inv.name)) return false;
  const { options, operands } = splitArgs(inv.args, shell ? 'o' : 'mrIWX', shell ? [] : ['--require']);
  if (shell && hasFlag(options, 's')) return true;
  if (hasFlag(options, shell ? 'c' : 'cemEp', ['--eval', '--print'])) return false;
  return operands.length === 0 || STDIN.has(operands[0]?.text ?? '');
}

/** The shell script a command runs from its arguments: `sh -c 'script'`, `eval words…`. */
export function nestedScript(inv: Invocation): string | undefined {
  if (inv.name === 'eval') return inv.args.length > 0 ? inv.args.map((w) => w.text).join(' ') : undefined;
  if (!SHELLS.has(inv.name)) return undefined;
  const { options, operands } = splitArgs(inv.args, 'o');
  return hasFlag(options, 'c') ? operands[0]?.text : undefined;
}

/** The commands `find … -exec cmd {} ;` (and -execdir, -ok) runs, as argument lists. */
export function findExecs(inv: Invocation): Word[][] {
  if (inv.name !== 'find') return [];
  const out: Word[][] = [];
  let current: Word[] | undefined;
  for (const word of inv.args) {
    if (current === undefined) {
      if (/^-(exec|execdir|ok|okdir)$/.test(word.text)) current = [];
    } else if (word.text === ';' || word.text === '+') {
      out.push(current);
      current = undefined;
    } else current.push(word);
  }
  if (current !== undefined) out.push(current);
  return out;
}

function downloads(script: ShellScript): boolean {
  return simpleCommands(script).some((command) => DOWNLOADERS.has(invocation(command.words).name));
}

function wordDownloads(word: Word): boolean {
  return word.subs.some(downloads) || (word.process !== undefined && downloads(word.process));
}

/** The commands of a pipeline stage: itself, or the top-level ones of a group. */
function stageInvocations(pipeline: Pipeline, index: number): Invocation[] {
  const command = pipeline.commands[index];
  if (command === undefined) return [];
  if (command.type === 'simple') return [invocation(command.words)];
  return command.body.flatMap((p) => p.commands.flatMap((c) => (c.type === 'simple' ? [invocation(c.words)] : [])));
}

/** Whether the pipeline runs downloaded code: a download upstream of a stage that runs its input. */
export function pipesDownloadIntoInterpreter(pipeline: Pipeline): boolean {
  let downloaded = false;
  for (let i = 0; i < pipeline.commands.length; i++) {
    if (downloaded && stageInvocations(pipeline, i).some(runsStdin)) return true;
    const command = pipeline.commands[i];
    if (command !== undefined) downloaded ||= downloads([{ commands: [command], source: '' }]);
  }
  return false;
}

/** Whether a code-running command gets its code from a download (`bash <(curl …)`). */
export function runsDownloadedArgument(inv: Invocation): boolean {
  return runsCode(inv) && inv.args.some(wordDownloads);
}
