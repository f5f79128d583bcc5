import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { git, HARNESS_IDENTITY, repositoryRoot, Refused } from '../lib/index.js';
import type { WorktreeRecord } from '../store/index.js';
import type { TeamPaths } from '../team/index.js';
import { requireOwnGitDir } from './repository-check.js';
import { detachForCommit, detachWorktreeHead, syncWorktreeBranch } from './head.js';
import { excluding, nestedRepositories } from './nested.js';

/**
 * A teammate's own git worktree: where it is, and the steps of its life that the harness takes
 * outside any sandbox (creating it, committing what the teammate left, removing it). Every git
 * call goes through lib/git.ts, hooks off.
 */

/** Where a teammate's worktree lives: under the team's state, hidden from every other agent's sandbox. */
export function worktreeDir(paths: TeamPaths, name: string): string {
  return join(paths.root, 'worktrees', name);
}

export function worktreeBranch(team: string, name: string): string {
  return `teams/${team}/${name}`;
}

/** The repository a worktree belongs to: its common git directory's working tree. */
export async function repositoryOf(worktree: string): Promise<string> {
  const common = (await git(worktree, ['rev-parse', '--path-format=absolute', '--git-common-dir'])).stdout.trim();
  return dirname(common);
}

/**
 * A new worktree for `name` on a new branch from the HEAD of the repository holding `cwd`. Refused
 * outside a repository, in one without a commit, or when the branch is left from an earlier
 * teammate of that name (its work is merged or discarded first, never overwritten).
 */
export async function createWorktree(cwd: string, paths: TeamPaths, name: string): Promise<WorktreeRecord> {
  const repo = await repositoryRoot(cwd);
  if (repo === undefined) throw new Refused(`cannot give ${name} a worktree: ${cwd} is not in a git repository (spawn it without --worktree, or run git init and commit first)`);
  requireOwnGitDir(repo);
  const head = await git(repo, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], [0, 1]);
  if (head.code !== 0) throw new Refused(`cannot give ${name} a worktree: the repository ${repo} has no commit yet to start it from`);
  const base = head.stdout.trim();
  const branch = worktreeBranch(paths.team, name);
  const taken = await git(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], [0, 1]);
  if (taken.code === 0) throw new Refused(`the branch ${branch} is left from an earlier ${name}: merge or discard it first (teams merge/discard ${name})`);
  const path = worktreeDir(paths, name);
  if (existsSync(path)) throw new Refused(`${path} is in the way of ${name}'s worktree: run teams gc, or remove it`);
  await git(repo, ['worktree', 'add', '-b', branch, path, base]);
  await sealWorktreeConfig(path);
  await detachWorktreeHead({ repo, path, branch });
  return { path, branch, base, repo };
}

/**
 * Its git directory's `config.worktree`, empty when missing: git reads it (with the repository's
 * worktreeConfig extension) as config, so it must exist for the sandbox to bind it read-only.
 */
export async function sealWorktreeConfig(path: string): Promise<void> {
  const gitdir = (await git(path, ['rev-parse', '--absolute-git-dir'])).stdout.trim();
  const config = join(gitdir, 'config.worktree');
  if (!existsSync(config)) writeFileSync(config, '', { flag: 'wx' });
}

/** Whether the worktree is still there, a working tree of its repository. */
export async function worktreeExists(record: WorktreeRecord): Promise<boolean> {
  return existsSync(record.path) && (await worktreeRegistered(record));
}

/** Whether the repository lists the worktree, its directory there or not (a stale entry, `prunable`). */
async function worktreeRegistered(record: WorktreeRecord): Promise<boolean> {
  const list = await git(record.repo, ['worktree', 'list', '--porcelain']).catch(() => undefined);
  return list?.stdout.split('\n').includes(`worktree ${record.path}`) ?? false;
}

/** Whether its branch is still there: its work outlives a worktree directory removed by hand. */
export async function branchExists(record: Pick<WorktreeRecord, 'repo' | 'branch'>): Promise<boolean> {
  return (await git(record.repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${record.branch}`], [0, 1])).code === 0;
}

/**
 * Forget the worktree's entry in the repository once its directory is gone (git lists it as
 * prunable and will not delete a branch it still counts as checked out there). Only this entry:
 * `git worktree prune` would clear the human's own stale worktrees too.
 */
export async function forgetStaleWorktree(record: WorktreeRecord): Promise<void> {
  if (!existsSync(record.path) && (await worktreeRegistered(record))) await git(record.repo, ['worktree', 'remove', '--force', record.path]);
}

/**
 * Commit whatever the teammate left uncommitted on its worktree's HEAD, as the harness (fixed
 * identity, no hooks, no verification), then move its branch there: nothing it wrote is lost
 * when its worktree goes. Nested repositories are left out (never added as gitlinks) and named
 * in `nested`. `committed` false when there was nothing to commit.
 */
export async function commitLeftovers(record: WorktreeRecord, name: string): Promise<{ committed: boolean; nested: string[] }> {
  const nested = nestedRepositories(record.path);
  await git(record.path, ['add', '--all', '--', '.', ...excluding(nested)]);
  await detachForCommit(record);
  const staged = await git(record.path, ['diff', '--cached', '--quiet'], [0, 1]);
  if (staged.code !== 0) await git(record.path, [...HARNESS_IDENTITY, 'commit', '--quiet', '--no-verify', '--no-gpg-sign', '-m', `teams: what ${name} left uncommitted`]);
  await syncWorktreeBranch(record);
  return { committed: staged.code !== 0, nested };
}

/** The commits on its branch that the repository's current branch does not have. */
export async function unmergedCommits(record: WorktreeRecord): Promise<number> {
  const count = await git(record.repo, ['rev-list', '--count', `HEAD..refs/heads/${record.branch}`]);
  return Number(count.stdout.trim());
}

/** Remove the worktree and its branch (forced: the caller decided its work is merged or unwanted). */
export async function removeWorktree(record: WorktreeRecord): Promise<void> {
  if (existsSync(record.path)) await git(record.repo, ['worktree', 'remove', '--force', record.path]);
  else await forgetStaleWorktree(record);
  if (await branchExists(record)) await git(record.repo, ['branch', '--quiet', '-D', record.branch]);
}

/** What a teammate spawned into a worktree is told with its task: where its work goes, and what becomes of it. */
export function worktreeBrief(record: WorktreeRecord): string {
  return (
    `You work in your own git worktree for the branch ${record.branch} (from ${record.base.slice(0, 12)}): your changes stay there, apart from the other teammates'. ` +
    `Its HEAD is detached on purpose: commit your work as you go (git add, git commit), with messages that say what and why, and ${record.branch} follows your commits. ` +
    'Do not create, switch or move branches or tags: every ref is read-only to you. Do not create nested git repositories or submodules: they are never merged. ' +
    'Whatever is left uncommitted when you stop is committed for you. The human or the lead reviews your branch and merges it.'
  );
}

export type Settled = { committed: boolean; kept: boolean; unmerged: number; nested: string[] };

/**
 * A teammate stopped (finished, shut down, crashed, removed): its leftovers committed, then the
 * worktree removed unless its branch holds commits the repository's branch lacks. Undefined when
 * it was removed already.
 */
export async function settleWorktree(record: WorktreeRecord, name: string): Promise<Settled | undefined> {
  if (!existsSync(record.path)) return undefined;
  const { committed, nested } = await commitLeftovers(record, name);
  const unmerged = await unmergedCommits(record);
  // A nested repository is not in any commit: removing the worktree would lose it unseen.
  const kept = unmerged > 0 || nested.length > 0;
  if (!kept) await removeWorktree(record);
  return { committed, kept, unmerged, nested };
}

/** What a person reads of a settled worktree: in the REPL's info line and the audit log. */
export function describeSettled(name: string, record: WorktreeRecord, settled: Settled): string {
  const left = settled.committed ? 'what it left uncommitted was committed; ' : '';
  if (!settled.kept) return `${name}'s worktree was removed (${left}nothing unmerged)`;
  const commits = `${settled.unmerged} commit${settled.unmerged === 1 ? '' : 's'}`;
  const nested = settled.nested.length === 0 ? '' : `; nested git repositories left out of its commits, never added: ${settled.nested.join(', ')}`;
  return `${name}'s worktree is kept: ${left}${record.branch} has ${commits} not merged${nested} (teams diff/merge/discard ${name})`;
}
