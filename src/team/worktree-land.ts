import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from '../lib/git.js';
import { Refused } from '../lib/refused.js';
import type { Member, WorktreeRecord } from '../store/roster.js';

/**
 * Seeing a teammate's work: which worktree a member has, and what it changed. What the human
 * asks for with /diff and teams diff (merging is worktree-merge.ts, leftovers worktree-leftovers.ts).
 */

/** The member's worktree, or why there is none to act on. */
export function requireWorktree(member: Member): WorktreeRecord {
  if (member.worktree === undefined) throw new Refused(`${member.name} has no worktree (spawn it with --worktree to give it one)`);
  return member.worktree;
}

/**
 * What the teammate changed since it started: its commits and whatever it has not committed,
 * new files included, as one diff against its base. Read through a temporary index, so the
 * teammate's own index is never touched (it may be running). With its directory gone, what its
 * branch holds is all there is.
 */
export async function worktreeDiff(record: WorktreeRecord): Promise<string> {
  const options = ['--no-color', '--no-ext-diff', '--no-textconv'];
  if (!existsSync(record.path)) return (await git(record.repo, ['diff', ...options, record.base, `refs/heads/${record.branch}`, '--'])).stdout;
  const scratch = mkdtempSync(join(tmpdir(), 'teams-diff-'));
  const env = { GIT_INDEX_FILE: join(scratch, 'index') };
  try {
    await git(record.path, ['read-tree', 'HEAD'], [0], env);
    await git(record.path, ['add', '--all'], [0], env);
    return (await git(record.path, ['diff', '--cached', ...options, record.base], [0], env)).stdout;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
