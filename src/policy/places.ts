import { posix } from 'node:path';
import type { Word } from './shell-syntax.js';

/**
 * Where a path a command names lands relative to the working directory, decided from the
 * text alone (the policy is pure: no realpath, so a symlink inside that points out is the
 * file tools' concern, not this). Paths only known at run time count as unknown.
 */
export type Place = 'inside' | 'outside' | 'unknown';

export type Location = {
  /** The working directory: the boundary. */
  root: string;
  /** The shell's directory as `cd` moved it; undefined once it is not known (`cd "$X"`). */
  cwd: string | undefined;
  /** The home directory `~` stands for, when the caller knows it. */
  home: string | undefined;
};

// Writing to these is how commands discard or show output, not a change to any file.
const DEVICES = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

/**
 * A git directory. What git reads from one when a person runs git (its config: `core.hooksPath`,
 * `core.fsmonitor`, aliases, `core.sshCommand`; its hooks; `commondir`, which moves both
 * elsewhere) runs as that person, outside any sandbox: a write there escapes every approval.
 */
export const GIT_DIR = '.git';

/**
 * What in a git directory makes git run a program or read its config from elsewhere. The
 * sandbox binds these read-only (src/sandbox/git-guard.ts); the rest (objects, refs, logs,
 * index, HEAD) stays writable so that an agent can still commit.
 */
export const GIT_DIR_GUARDED = ['config', 'config.worktree', 'commondir', 'hooks'] as const;

/** Whether a `/`-separated path, relative to the working directory, is or lies in a `.git`. */
export function isGitPath(relative: string): boolean {
  return relative.split('/').includes(GIT_DIR);
}

export function isInside(path: string, root: string): boolean {
  const base = posix.normalize(root).replace(/(.)\/$/, '$1');
  return path === base || path.startsWith(base === '/' ? '/' : `${base}/`);
}

/** The absolute path a word names, or undefined when it cannot be known before running. */
export function resolveWord(word: Word, where: Location): string | undefined {
  if (word.leadingDynamic) return undefined;
  let text = word.text;
  if (word.tilde) {
    if (where.home === undefined || !/^~(\/|$)/.test(text)) return undefined;
    text = where.home + text.slice(1);
  }
  if (text.startsWith('/')) return posix.normalize(text);
  return where.cwd === undefined ? undefined : posix.resolve(where.cwd, text);
}

export function placeOf(word: Word, where: Location): Place {
  if (word.process) return 'inside';
  const path = resolveWord(word, where);
  if (path === undefined) return word.tilde ? 'outside' : 'unknown';
  if (DEVICES.test(path)) return 'inside';
  return isInside(path, where.root) ? 'inside' : 'outside';
}
