import { execFile } from 'node:child_process';

/**
 * Every git command the harness runs goes through here: execFile, never a shell, and nothing
 * run that a teammate could have chosen. The harness runs git as the human, outside any sandbox,
 * in places a teammate wrote: its worktree (nested repositories with configs of their own, a
 * `.gitattributes` naming drivers, a `.gitmodules`) and the common git directory's objects. So,
 * on every call, whichever command it is:
 * - hooks off (`core.hooksPath=/dev/null`: commit, merge, checkout, worktree and every ref
 *   update, `reference-transaction`, would run them);
 * - no fsmonitor, no external diff, no pager, no transport at all (the harness never fetches,
 *   so no credential or ssh helper, no `ext::`), no signing program;
 * - submodules ignored (`diff.ignoreSubmodules=all`, `submodule.recurse=false`): git would
 *   otherwise run `git status` inside a nested repository, as the human, under that repository's
 *   own config (its filters, its fsmonitor), which the teammate wrote;
 * - every filter driver the repository's config defines emptied (a `.gitattributes` the
 *   teammate wrote may name any of them for any file); textconv is off where diffs are made
 *   (`--no-textconv`, worktree-land.ts).
 * These `-c` settings travel to any git child process through GIT_CONFIG_PARAMETERS.
 */
export class GitError extends Error {
  override name = 'GitError';
  /** Git's own words alone, without the command line (for a message to a person). */
  constructor(
    message: string,
    readonly said = message,
  ) {
    super(message);
  }
}

/** The identity of commits the harness makes itself (a teammate's leftovers, a merge). */
export const HARNESS_IDENTITY = ['-c', 'user.name=teams', '-c', 'user.email=teams@localhost'] as const;

const SAFE = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['core.untrackedCache', 'false'],
  ['core.pager', 'cat'],
  ['diff.external', ''],
  ['diff.ignoreSubmodules', 'all'],
  ['status.submoduleSummary', 'false'],
  ['submodule.recurse', 'false'],
  ['protocol.allow', 'never'],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['merge.verifySignatures', 'false'],
].flatMap(([key, value]) => ['-c', `${key}=${value}`]);

export type GitResult = { stdout: string; stderr: string; code: number };

type Env = Record<string, string>;

function run(cwd: string, args: readonly string[], env: Env): Promise<{ error: (Error & { code?: unknown }) | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [...SAFE, ...args],
      // No terminal prompt for credentials or an editor: the harness never waits on a person here.
      { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true', GIT_PAGER: 'cat', LC_ALL: 'C', ...env } },
      (error, stdout, stderr) => resolve({ error, stdout, stderr }),
    );
  });
}

/**
 * `-c filter.<name>.clean=` (and smudge, process, required) for each filter driver the config
 * seen from `cwd` defines: an empty command is no filter. Read with `git config`, which runs
 * nothing; a config git cannot read leaves the command to fail on it anyway.
 */
async function filtersOff(cwd: string, env: Env): Promise<string[]> {
  const { stdout } = await run(cwd, ['config', '--null', '--name-only', '--get-regexp', '^filter\\.'], env);
  const names = new Set(stdout.split('\0').map((key) => key.match(/^filter\.(.+)\.[^.]+$/)?.[1]).filter((name): name is string => name !== undefined));
  return [...names].flatMap((name) => ['clean', 'smudge', 'process'].flatMap((key) => ['-c', `filter.${name}.${key}=`]).concat(['-c', `filter.${name}.required=false`]));
}

/** Commands that read refs, config or object names only, and never run a filter: spared the look-up. */
const UNFILTERED = new Set(['rev-parse', 'for-each-ref', 'update-ref', 'symbolic-ref', 'config', 'rev-list', 'merge-base', 'ls-tree', 'ls-files', 'branch']);

/** The git command `args` name: the first word that is neither an option nor a `-c` setting. */
function commandOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-c') i++;
    else if (!args[i]?.startsWith('-')) return args[i];
  }
  return undefined;
}

/**
 * Run `git args` in `cwd`. `ok` lists exit codes that are answers rather than failures (say,
 * 1 from `diff --quiet`); any other exit is a GitError carrying git's own words. `env` adds to
 * the environment (a temporary index).
 */
export async function git(cwd: string, args: readonly string[], ok: readonly number[] = [0], env: Env = {}): Promise<GitResult> {
  const command = commandOf(args);
  const filters = command !== undefined && UNFILTERED.has(command) ? [] : await filtersOff(cwd, env);
  const { error, stdout, stderr } = await run(cwd, [...filters, ...args], env);
  const code = error === null ? 0 : typeof error.code === 'number' ? error.code : undefined;
  if (code !== undefined && ok.includes(code)) return { stdout, stderr, code };
  if (error !== null && error.code === 'ENOENT') throw new GitError('git is not installed (or not on the PATH): worktrees need git');
  const said = stderr.trim() || stdout.trim() || error?.message || 'no output';
  throw new GitError(`git ${args.join(' ')} failed in ${cwd}: ${said}`, said);
}

/** The top of the working tree that holds `cwd`, or undefined outside any git repository. */
export async function repositoryRoot(cwd: string): Promise<string | undefined> {
  const result = await git(cwd, ['rev-parse', '--show-toplevel'], [0, 128]);
  return result.code === 0 ? result.stdout.trim() : undefined;
}
