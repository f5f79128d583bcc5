import { execFile } from 'node:child_process';

/**
 * Every git command the harness runs goes through here: execFile, never a shell, and hooks
 * off. A teammate's worktree and the repository's common git directory are places a teammate
 * could have written, so no hook found there may run as the human: `core.hooksPath=/dev/null`
 * on every call, whichever command it is (merge, commit, checkout and worktree all run hooks).
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

const SAFE = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'] as const;

export type GitResult = { stdout: string; stderr: string; code: number };

/**
 * Run `git args` in `cwd`. `ok` lists exit codes that are answers rather than failures (say,
 * 1 from `diff --quiet`); any other exit is a GitError carrying git's own words. `env` adds to
 * the environment (a temporary index).
 */
export function git(cwd: string, args: readonly string[], ok: readonly number[] = [0], env: Record<string, string> = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...SAFE, ...args],
      // No terminal prompt for credentials or an editor: the harness never waits on a person here.
      { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true', LC_ALL: 'C', ...env } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : undefined;
        if (code !== undefined && ok.includes(code)) return resolve({ stdout, stderr, code });
        if (error !== null && error.code === 'ENOENT') return reject(new GitError('git is not installed (or not on the PATH): worktrees need git'));
        const said = stderr.trim() || stdout.trim() || error?.message || 'no output';
        reject(new GitError(`git ${args.join(' ')} failed in ${cwd}: ${said}`, said));
      },
    );
  });
}

/** The top of the working tree that holds `cwd`, or undefined outside any git repository. */
export async function repositoryRoot(cwd: string): Promise<string | undefined> {
  const result = await git(cwd, ['rev-parse', '--show-toplevel'], [0, 128]);
  return result.code === 0 ? result.stdout.trim() : undefined;
}
