import { existsSync } from 'node:fs';
import { git, GitError, HARNESS_IDENTITY, type GitResult, Refused } from '../lib/index.js';
import type { WorktreeRecord } from '../store/index.js';
import { commitLeftovers, removeWorktree, unmergedCommits } from './worktree.js';
import { requireOwnGitDir } from './repository-check.js';
import { describeNested, submoduleChanges } from './nested.js';

/**
 * Landing a teammate's branch in the lead's: a merge that either completes or leaves the lead's
 * tree exactly as it was. Whatever git refuses (a conflict, a file in the way) is undone and
 * said in words, never as git's raw command line.
 */

/**
 * Merge the teammate's branch (its leftovers committed first, when its worktree is still there)
 * into the repository's current branch. Refused when the lead's tree has uncommitted changes or
 * a merge of its own under way (an aborted merge could not give them back whole); a conflict or
 * any other refusal by git aborts the merge and says why. Once merged, the worktree and branch
 * go (nothing of them is left unmerged); `kept` says why, should git refuse to remove them.
 */
export async function mergeWorktree(record: WorktreeRecord, name: string): Promise<{ merged: number; kept?: string }> {
  requireOwnGitDir(record.repo);
  const nested = existsSync(record.path) ? (await commitLeftovers(record, name)).nested : [];
  // Another repository brought in is reported, never merged: the human looks at it first.
  const submodules = await submoduleChanges(record.repo, record.base, `refs/heads/${record.branch}`);
  const warning = describeNested(name, nested, submodules);
  if (warning !== undefined) throw new Refused(`${warning}\nNothing was merged: look at them (teams diff ${name}), then merge ${record.branch} by hand or discard it`);
  const dirty = await git(record.repo, ['status', '--porcelain', '--untracked-files=no']);
  if (dirty.stdout.trim() !== '') throw new Refused(`the lead's tree (${record.repo}) has uncommitted changes: commit or stash them before merging ${name}'s work`);
  const mergeHead = (await git(record.repo, ['rev-parse', '--path-format=absolute', '--git-path', 'MERGE_HEAD'])).stdout.trim();
  // Only a merge this call started may be aborted: one the human has under way is theirs.
  if (existsSync(mergeHead)) throw new Refused(`the lead's tree (${record.repo}) is in the middle of a merge: conclude or abort it before merging ${name}'s work`);
  const merged = await unmergedCommits(record);
  if (merged > 0) {
    const head = (await git(record.repo, ['rev-parse', '--verify', 'HEAD'])).stdout.trim();
    const named = await git(record.repo, ['config', 'user.email'], [0, 1]);
    const identity = named.code === 0 ? [] : HARNESS_IDENTITY;
    const message = `Merge ${name}'s work (${record.branch})`;
    // Every exit is an answer here: a refusal is undone and explained below, whatever its code.
    const result = await git(record.repo, [...identity, 'merge', '--no-ff', '--no-edit', '--no-verify', '-m', message, `refs/heads/${record.branch}`], [0, 1, 2, 128]);
    if (result.code !== 0) throw new Refused(await undoMerge(record, name, head, mergeHead, result));
  }
  // Merged by now: a worktree git will not remove (locked, say) is said, not a failure of the merge.
  const kept = await removeWorktree(record).then(
    () => undefined,
    (error: unknown) => (error instanceof GitError ? error.said.replace(/\s*\n\s*/g, '; ') : String(error)),
  );
  return kept === undefined ? { merged } : { merged, kept };
}

/** Undo a merge git did not complete, and say why it did not (and, should the undoing fail, what is left to do). */
async function undoMerge(record: WorktreeRecord, name: string, head: string, mergeHead: string, result: GitResult): Promise<string> {
  const conflicted = (await git(record.repo, ['diff', '--name-only', '--diff-filter=U'])).stdout.trim().split('\n').filter(Boolean);
  if (existsSync(mergeHead)) await git(record.repo, ['merge', '--abort'], [0, 128]);
  const now = (await git(record.repo, ['rev-parse', '--verify', 'HEAD'])).stdout.trim();
  if (existsSync(mergeHead) || now !== head) {
    return `merging ${name}'s work failed and git could not undo it: run git merge --abort in ${record.repo} (and check git status) before anything else`;
  }
  if (conflicted.length > 0) {
    return `merging ${name}'s work failed (conflicts in ${conflicted.join(', ')}): nothing was merged, your tree is as it was; resolve it by hand (git merge ${record.branch}) or discard it`;
  }
  return `merging ${name}'s work was refused by git: ${refusalReason(`${result.stderr}\n${result.stdout}`)}. Nothing was merged.`;
}

/** Git's reason for refusing a merge before it began, in a person's words when it is a known one. */
export function refusalReason(said: string): string {
  const inTheWay = (heading: string) => {
    const at = said.indexOf(heading);
    if (at < 0) return undefined;
    const files = said.slice(at + heading.length).split('\n').slice(1);
    const listed = files.slice(0, Math.max(0, files.findIndex((line) => !line.startsWith('\t')))).map((line) => line.trim());
    return listed.length > 0 ? listed.join(', ') : '(git named none)';
  };
  const untracked = inTheWay('untracked working tree files would be overwritten by merge:');
  if (untracked !== undefined) return `untracked files in your tree would be overwritten: ${untracked}; move or remove them, then merge again`;
  const local = inTheWay('local changes to the following files would be overwritten by merge:');
  if (local !== undefined) return `uncommitted changes in your tree would be overwritten: ${local}; commit or stash them, then merge again`;
  const first = said.split('\n').map((line) => line.trim()).find((line) => line !== '');
  return first === undefined ? 'git gave no reason' : `${first.replace(/\.$/, '')}; your tree is as it was`;
}
