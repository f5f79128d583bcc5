import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { git, repositoryRoot } from '../lib/index.js';
import { aliveMembers, type Member, type WorktreeRecord } from '../store/index.js';
import type { TeamPaths } from '../team/index.js';
import { syncWorktreeBranch } from './head.js';
import { branchExists, commitLeftovers, forgetStaleWorktree, removeWorktree, repositoryOf, unmergedCommits, worktreeBranch, worktreeDir } from './worktree.js';

/**
 * Teammates' worktrees left behind: under the team's state, or only as a branch once their
 * directory was removed by hand (its unmerged commits are still work). What `teams status`
 * lists, /merge and friends find by name off the roster, and `teams gc` clears.
 */

/**
 * The repositories the team's worktrees may belong to: the members' recorded ones, those of the
 * directories left, and the one holding the state root (where `.teams` is, in the project).
 */
async function teamRepositories(paths: TeamPaths, members: readonly Member[]): Promise<string[]> {
  const found = new Set<string>();
  for (const member of members) if (member.worktree !== undefined && existsSync(member.worktree.repo)) found.add(member.worktree.repo);
  for (const name of worktreeNames(paths)) {
    const repo = await repositoryOf(worktreeDir(paths, name)).catch(() => undefined);
    if (repo !== undefined) found.add(repo);
  }
  const around = existsSync(paths.root) ? await repositoryRoot(paths.root).catch(() => undefined) : undefined;
  if (around !== undefined) found.add(around);
  return [...found];
}

function worktreeNames(paths: TeamPaths): string[] {
  const dir = join(paths.root, 'worktrees');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** The team's worktree branches in `repo` (`teams/<team>/<name>`), by teammate name. */
async function teamBranches(paths: TeamPaths, repo: string): Promise<string[]> {
  const prefix = `refs/heads/${worktreeBranch(paths.team, '')}`;
  const refs = await git(repo, ['for-each-ref', '--format=%(refname)', prefix]).catch(() => undefined);
  return (refs?.stdout ?? '').split('\n').filter((ref) => ref.startsWith(prefix) && !ref.slice(prefix.length).includes('/')).map((ref) => ref.slice(prefix.length)).filter(Boolean);
}

/**
 * The worktree left for `name` once it is off the roster (`teams member remove` kept it, its
 * branch being unmerged), or its branch alone when the directory is gone: its base is where its
 * branch left the repository's.
 */
export async function leftoverRecord(paths: TeamPaths, name: string, members: readonly Member[] = []): Promise<WorktreeRecord | undefined> {
  const path = worktreeDir(paths, name);
  const branch = worktreeBranch(paths.team, name);
  const repos = existsSync(path) ? [await repositoryOf(path)] : await teamRepositories(paths, members);
  for (const repo of repos) {
    if (!(await branchExists({ repo, branch }))) continue;
    const base = (await git(repo, ['merge-base', 'HEAD', `refs/heads/${branch}`])).stdout.trim();
    return { path, branch, base, repo };
  }
  return undefined;
}

/**
 * A worktree of the team's, whoever it belonged to (a member removed since included): `directory`
 * false when only its branch is left; `uncommitted` when its directory holds changes not yet
 * committed (a running teammate's work in progress); `running` when its teammate runs.
 */
export type Leftover = { name: string; path: string; branch: string; repo: string; unmerged: number; directory: boolean; uncommitted: boolean; running: boolean };

/** Whether the worktree holds changes not committed, new files included; read without taking git's optional locks, the teammate may be at work. */
async function hasUncommitted(path: string): Promise<boolean> {
  const status = await git(path, ['--no-optional-locks', 'status', '--porcelain', '--untracked-files=all', '--ignore-submodules=all']).catch(() => undefined);
  return status !== undefined && status.stdout.trim() !== '';
}

/** Every worktree directory under the team's state, every branch of the team's whose directory is gone, and what each holds unmerged. */
export async function leftoverWorktrees(paths: TeamPaths, members: readonly Member[] = []): Promise<Leftover[]> {
  const found: Leftover[] = [];
  const running = aliveMembers(members);
  const named = new Set(worktreeNames(paths));
  for (const name of named) {
    const path = worktreeDir(paths, name);
    const repo = await repositoryOf(path).catch(() => undefined);
    const branch = worktreeBranch(paths.team, name);
    const unmerged = repo === undefined ? 0 : await unmergedCommits({ path, repo, branch, base: '0'.repeat(40) }).catch(() => 0);
    if (repo !== undefined) await syncWorktreeBranch({ repo, path, branch });
    const uncommitted = repo !== undefined && (await hasUncommitted(path));
    found.push({ name, path, branch, repo: repo ?? '(not a git worktree)', unmerged, directory: true, uncommitted, running: running.has(name) });
  }
  for (const repo of await teamRepositories(paths, members)) {
    for (const name of await teamBranches(paths, repo)) {
      if (named.has(name)) continue;
      named.add(name);
      const record = { path: worktreeDir(paths, name), branch: worktreeBranch(paths.team, name), repo, base: '0'.repeat(40) };
      // A directory removed by hand leaves its git directory's HEAD, listed as prunable: its last commits.
      await syncWorktreeBranch(record);
      found.push({ ...record, name, unmerged: await unmergedCommits(record), directory: false, uncommitted: false, running: running.has(name) });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Remove the leftover worktrees whose branches are merged, skipping `running` members'; say
 * which were kept and why. Leftovers are committed first, so a kept one loses nothing either;
 * a directory gone has its stale entry forgotten, and its branch is kept while it holds work.
 */
export async function collectWorktrees(paths: TeamPaths, running: ReadonlySet<string>, members: readonly Member[] = []): Promise<{ removed: string[]; kept: string[] }> {
  const removed: string[] = [];
  const kept: string[] = [];
  for (const leftover of await leftoverWorktrees(paths, members)) {
    if (running.has(leftover.name)) {
      kept.push(`${leftover.name}: it is running`);
      continue;
    }
    if (leftover.repo.startsWith('(')) {
      kept.push(`${leftover.name}: ${leftover.path} is not a git worktree; remove it by hand`);
      continue;
    }
    const record = { path: leftover.path, branch: leftover.branch, repo: leftover.repo, base: '0'.repeat(40) };
    if (leftover.directory) await commitLeftovers(record, leftover.name);
    else await forgetStaleWorktree(record);
    const unmerged = await unmergedCommits(record);
    const where = leftover.directory ? '' : 'its worktree directory is gone, but ';
    if (unmerged > 0) kept.push(`${leftover.name}: ${where}${leftover.branch} has ${unmerged} unmerged commit${unmerged === 1 ? '' : 's'} (teams merge/discard ${leftover.name})`);
    else {
      await removeWorktree(record);
      removed.push(leftover.name);
    }
  }
  return { removed, kept };
}
