import { gitSubcommand } from './danger-rules.js';
import { hasFlag, invocation, splitArgs } from './shell-argv.js';
import { parseShell } from './shell-parse.js';
import { ShellSyntaxError, type Command, type Redirect, type ShellScript, type Word } from './shell-syntax.js';

/**
 * Whether a shell command only reads: what plan mode lets run before a plan is approved.
 * An allowlist, so anything not known to be harmless (an unknown command, an output
 * redirection, a wrapper like sudo, a syntax it cannot read) is not read-only.
 */
export function isReadOnlyCommand(command: string): boolean {
  try {
    return scriptReadOnly(parseShell(command));
  } catch (error) {
    if (error instanceof ShellSyntaxError) return false;
    throw error;
  }
}

type Check = (args: Word[]) => boolean;
const ANY: Check = () => true;
const without =
  (...forbidden: string[]): Check =>
  (args) =>
    !args.some((w) => forbidden.some((f) => w.text === f || (f.startsWith('--') && w.text.startsWith(`${f}=`))));
const atMostOperands =
  (n: number): Check =>
  (args) =>
    splitArgs(args).operands.length <= n;

// `sed -n '3,20p' file`: printing line ranges only; other scripts can write files (w) or run commands (e).
const SED_PRINT = /^\s*(\d+|\$)?(\s*,\s*(\d+|\$))?\s*p\s*$/;
const sedPrints: Check = (args) => {
  const { options, operands, values } = splitArgs(args, 'e', ['--expression']);
  if (hasFlag(options, 'ifEsz', ['--in-place', '--file']) || !hasFlag(options, 'n', ['--quiet', '--silent'])) return false;
  const script = values.get('-e') ?? values.get('--expression') ?? operands[0]?.text ?? '';
  return SED_PRINT.test(script);
};

const GIT_READS = new Set([
  'status', 'log', 'diff', 'show', 'rev-parse', 'ls-files', 'ls-tree', 'blame', 'grep', 'describe', 'shortlog',
  'cat-file', 'rev-list', 'merge-base', 'name-rev', 'for-each-ref', 'show-ref', 'whatchanged',
]);
const GIT_LISTINGS: Record<string, Check> = {
  // These list with no operands; given names they create or delete.
  branch: (args) => splitArgs(args).operands.length === 0 && !hasFlag(splitArgs(args).options, 'dDmMcC', ['--delete', '--move', '--copy', '--set-upstream-to', '--unset-upstream', '--edit-description']),
  tag: (args) => splitArgs(args).operands.length === 0 && !hasFlag(splitArgs(args).options, 'dasuf', ['--delete']),
  remote: (args) => args.every((w) => w.text === '-v' || w.text === '--verbose'),
  stash: (args) => ['list', 'show'].includes(args[0]?.text ?? ''),
  config: (args) => args.some((w) => ['--get', '--get-all', '--list', '-l', '--get-regexp'].includes(w.text)),
};

const git: Check = (args) => {
  const call = gitSubcommand(args);
  if (call === undefined) return false;
  // Of git's own options only these are harmless; `-c` can set an alias or a pager to anything.
  const own = args.slice(0, args.length - call.rest.length - 1).map((w) => w.text);
  if (own.some((o, i) => o !== '--no-pager' && o !== '-C' && own[i - 1] !== '-C')) return false;
  // Options that name a program for git to run: a pager for the matches, diff drivers.
  if (call.rest.some((w) => /^(--(output|ext-diff|textconv|open-files-in-pager)|-O)/.test(w.text))) return false;
  if (GIT_READS.has(call.sub)) return true;
  return Object.hasOwn(GIT_LISTINGS, call.sub) && (GIT_LISTINGS[call.sub] as Check)(call.rest);
};

const COMMANDS: Record<string, Check> = {
  ...Object.fromEntries(
    [
      'ls', 'cat', 'head', 'tail', 'grep', 'egrep', 'fgrep', 'ag', 'wc', 'pwd', 'echo', 'printf', 'true', 'false', 'which',
      'type', 'whoami', 'id', 'file', 'stat', 'du', 'df', 'cut', 'tr', 'basename', 'dirname', 'realpath', 'readlink', 'diff',
      'cmp', 'nl', 'od', 'hexdump', 'strings', 'jq', 'column', 'env', 'printenv', 'uname', 'test', '[', '[[', 'cd', 'for',
      'read', 'seq', 'tac', 'rev', 'fold', 'paste', 'comm', 'sha256sum', 'sha1sum', 'md5sum', 'command', 'ps', 'sleep',
    ].map((name) => [name, ANY]),
  ),
  // Nothing but keywords (`done`, `fi`) or assignments, which are checked on their own.
  '': ANY,
  rg: without('--pre', '--pre-glob'),
  sort: (args) => !hasFlag(splitArgs(args).options, 'o', ['--output', '--compress-program']),
  tree: (args) => !hasFlag(splitArgs(args).options, 'o'),
  find: without('-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls'),
  uniq: atMostOperands(1),
  xxd: atMostOperands(1),
  hostname: atMostOperands(0),
  date: without('-s', '--set'),
  sed: sedPrints,
  git,
};

const SAFE_WRAPPERS = new Set(['time', 'timeout', 'nice', 'command', 'xargs']);
const SAFE_ENV = /^(LC_[A-Z]+|LANG|LANGUAGE|TZ|NO_COLOR|FORCE_COLOR|TERM|COLUMNS|LINES)$/;
const READ_REDIRECTS = new Set(['<', '<<', '<<-', '<<<', 'dup']);
const DISCARD = /^\/dev\/(null|stdout|stderr)$/;

function scriptReadOnly(script: ShellScript): boolean {
  return script.every((pipeline) => pipeline.commands.every(commandReadOnly));
}

function wordReadOnly(word: Word): boolean {
  return word.subs.every(scriptReadOnly) && (word.process === undefined || scriptReadOnly(word.process));
}

function redirectReadOnly(redirect: Redirect): boolean {
  if (!wordReadOnly(redirect.target) || (redirect.body !== undefined && !wordReadOnly(redirect.body))) return false;
  return READ_REDIRECTS.has(redirect.op) || (DISCARD.test(redirect.target.text) && !redirect.target.dynamic);
}

function commandReadOnly(command: Command): boolean {
  if (!command.redirects.every(redirectReadOnly)) return false;
  if (command.type === 'group') return scriptReadOnly(command.body);
  if (!command.words.every(wordReadOnly)) return false;
  const inv = invocation(command.words);
  if (!inv.wrappers.every((w) => SAFE_WRAPPERS.has(w)) || !inv.assignments.every((a) => SAFE_ENV.test(a))) return false;
  return Object.hasOwn(COMMANDS, inv.name) && (COMMANDS[inv.name] as Check)(inv.args);
}
