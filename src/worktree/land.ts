import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, Refused } from '../lib/index.js';
import type { Member, WorktreeRecord } from '../store/index.js';
import { describeNested, excluding, nestedRepositories, submoduleChanges } from './nested.js';

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
export async function worktreeDiff(record: WorktreeRecord, name: string): Promise<{ diff: string; warning?: string }> {
  // Gitlinks are shown as such (`--ignore-submodules=none` is git's default, but the harness's config says all).
  const options = ['--no-color', '--no-ext-diff', '--no-textconv', '--ignore-submodules=dirty'];
  const withWarning = (diff: string, warning: string | undefined) => (warning === undefined ? { diff } : { diff, warning });
  if (!existsSync(record.path)) {
    const branch = `refs/heads/${record.branch}`;
    const warning = describeNested(name, [], await submoduleChanges(record.repo, record.base, branch));
    return withWarning((await git(record.repo, ['diff', ...options, record.base, branch, '--'])).stdout, warning);
  }
  const scratch = mkdtempSync(join(tmpdir(), 'teams-diff-'));
  const env = { GIT_INDEX_FILE: join(scratch, 'index') };
  try {
    const nested = nestedRepositories(record.path);
    await git(record.path, ['read-tree', 'HEAD'], [0], env);
    await git(record.path, ['add', '--all', '--', '.', ...excluding(nested)], [0], env);
    const warning = describeNested(name, nested, await submoduleChanges(record.path, record.base, 'index', env));
    return withWarning((await git(record.path, ['diff', '--cached', ...options, record.base], [0], env)).stdout, warning);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
