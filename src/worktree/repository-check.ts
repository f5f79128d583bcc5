import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { Refused } from '../lib/index.js';

/**
 * Before the harness runs git in the lead's repository as the human: its `.git` directory must
 * not hold a `commondir`. A repository's own `.git` never has one (only a linked worktree's git
 * directory does); one there was written by a command, and git would read config and run hooks
 * from wherever it points. The sandbox cannot cover a missing `commondir` (see git-guard.ts), and
 * an approved command may write one: the harness looks before it acts.
 */
export function requireOwnGitDir(repo: string): void {
  const dotGit = join(repo, '.git');
  if (!lstatSync(dotGit, { throwIfNoEntry: false })?.isDirectory()) return;
  if (lstatSync(join(dotGit, 'commondir'), { throwIfNoEntry: false }) === undefined) return;
  throw new Refused(`${dotGit}/commondir exists: a repository's own .git never holds one, a command wrote it, and git would read config and hooks from where it points. Look at it and remove it, then try again`);
}
