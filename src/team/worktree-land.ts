import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from '../lib/git.js';
import { Refused } from '../lib/refused.js';
import type { Member, WorktreeRecord } from '../store/roster.js';
import type { TeamPaths } from './paths.js';
import { commitLeftovers, removeWorktree, repositoryOf, unmergedCommits, worktreeBranch } from './worktree.js';

/**
 * Seeing and landing a teammate's work: its diff, merging its branch into the lead's, throwing
 * it away, and clearing worktrees left behind. What the human asks for (/diff, teams merge…).
 */

/** The member's worktree, or why there is none to act on. */
export function requireWorktree(member: Member): WorktreeRecord {
  if (member.worktree === undefined) throw new Refused(`${member.name} has no worktree (spawn it with --worktree to give it one)`);
  return member.worktree;
}

/**
 * What the teammate changed since it started: its commits and whatever it has not committed,
 * new files included, as one diff against its base. Read through a temporary index, so the
 * teammate's own index is never touched (it may be running).
 */
export async function worktreeDiff(record: WorktreeRecord): Promise<string> {
  if (!existsSync(record.path)) throw new Refused(`${record.path} is gone: nothing to show`);
  const scratch = mkdtempSync(join(tmpdir(), 'teams-diff-'));
  const env = { GIT_INDEX_FILE: join(scratch, 'index') };
  try {
    await git(record.path, ['read-tree', 'HEAD'], [0], env);
    await git(record.path, ['add', '--all'], [0], env);
    return (await git(record.path, ['diff', '--cached', '--no-color', '--no-ext-diff', '--no-textconv', record.base], [0], env)).stdout;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The worktree left under the team's state for `name` once it is off the roster (`teams member
 * remove` kept it, its branch being unmerged): its base is where its branch left the repository's.
 */
export async function leftoverRecord(paths: TeamPaths, name: string): Promise<WorktreeRecord | undefined> {
  const path = join(paths.root, 'worktrees', name);
  if (!existsSync(path)) return undefined;
  const repo = await repositoryOf(path);
  const branch = worktreeBranch(paths.team, name);
  const base = (await git(repo, ['merge-base', 'HEAD', `refs/heads/${branch}`])).stdout.trim();
  return { path, branch, base, repo };
}

/** A worktree under the team's state, whoever it belonged to (a member removed since included). */
export type Leftover = { name: string; path: string; branch: string; repo: string; unmerged: number };

/** Every worktree directory under the team's state, and what its branch holds unmerged. */
export async function leftoverWorktrees(paths: TeamPaths): Promise<Leftover[]> {
  const dir = join(paths.root, 'worktrees');
  const names = existsSync(dir) ? readdirSync(dir).sort() : [];
  const found: Leftover[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const repo = await repositoryOf(path).catch(() => undefined);
    const branch = worktreeBranch(paths.team, name);
    const unmerged = repo === undefined ? 0 : await unmergedCommits({ path, repo, branch, base: '0'.repeat(40) }).catch(() => 0);
    found.push({ name, path, branch, repo: repo ?? '(not a git worktree)', unmerged });
  }
  return found;
}

/**
 * Remove the leftover worktrees whose branches are merged, skipping `running` members'; say
 * which were kept and why. Leftovers are committed first, so a kept one loses nothing either.
 */
export async function collectWorktrees(paths: TeamPaths, running: ReadonlySet<string>): Promise<{ removed: string[]; kept: string[] }> {
  const removed: string[] = [];
  const kept: string[] = [];
  for (const leftover of await leftoverWorktrees(paths)) {
    if (running.has(leftover.name)) {
      kept.push(`${leftover.name}: it is running`);
      continue;
    }
    if (leftover.repo.startsWith('(')) {
      kept.push(`${leftover.name}: ${leftover.path} is not a git worktree; remove it by hand`);
      continue;
    }
    const record = { path: leftover.path, branch: leftover.branch, repo: leftover.repo, base: '0'.repeat(40) };
    await commitLeftovers(record, leftover.name);
    const unmerged = await unmergedCommits(record);
    if (unmerged > 0) kept.push(`${leftover.name}: ${leftover.branch} has ${unmerged} unmerged commit${unmerged === 1 ? '' : 's'} (teams merge/discard ${leftover.name})`);
    else {
      await removeWorktree(record);
      removed.push(leftover.name);
    }
  }
  return { removed, kept };
}
