import * as z from 'zod';
import { git } from '../lib/index.js';
import type { WorktreeRecord } from '../store/index.js';

/**
 * How a worktree teammate moves only its own branch. Its commands see every ref of the
 * repository read-only (sandbox/linked-worktree.ts binds only the common directory's objects
 * writable), so its worktree works on a detached HEAD, which lives in the worktree's own git
 * directory (`<common>/worktrees/<id>/HEAD`) and is its to move. The harness, outside the
 * sandbox, moves `teams/<team>/<name>` to that HEAD whenever it reads or lands the branch
 * (diff, merge, status, the teammate's exit). That HEAD is data a teammate wrote: taken only as
 * 40 hex digits, then checked to name a commit, and nothing it names is run.
 *
 * Why not per-worktree refs (`refs/worktree/*`): the branch the human merges must be a real
 * branch in the repository, and a ref only the worktree sees would need the same copying; nor
 * binding the branch's own ref file writable: the files backend writes through `<ref>.lock`
 * beside it and may pack refs into `packed-refs`, both shared with every other branch.
 */

const Commit = z.string().regex(/^[0-9a-f]{40}$/, 'a 40-hex commit id');

/** The worktree's HEAD as `git worktree list` reads it in the lead's repository, or undefined when it lists none. */
async function listedHead(record: Pick<WorktreeRecord, 'repo' | 'path'>): Promise<{ head: string; branch?: string } | undefined> {
  const list = await git(record.repo, ['worktree', 'list', '--porcelain', '-z']);
  for (const block of list.stdout.split('\0\0')) {
    const lines = block.split('\0');
    if (lines[0] !== `worktree ${record.path}`) continue;
    const head = Commit.safeParse(lines.find((line) => line.startsWith('HEAD '))?.slice('HEAD '.length));
    const branch = lines.find((line) => line.startsWith('branch '))?.slice('branch '.length);
    return head.success ? { head: head.data, ...(branch === undefined ? {} : { branch }) } : undefined;
  }
  return undefined;
}

/**
 * Detach the worktree's HEAD at its branch's commit (a new worktree, or one made before HEADs
 * were detached): the teammate's commits then move HEAD alone, in its own git directory.
 */
export async function detachWorktreeHead(record: Pick<WorktreeRecord, 'repo' | 'path' | 'branch'>): Promise<void> {
  const listed = await listedHead(record);
  if (listed?.branch !== `refs/heads/${record.branch}`) return;
  await git(record.path, ['update-ref', '--no-deref', '-m', 'teams: detached; the harness moves the branch', 'HEAD', listed.head]);
}

/**
 * Before the harness commits in the worktree (outside any sandbox): its HEAD detached, whatever
 * the teammate made of it. The worktree's git directory is the teammate's to write, and
 * `git symbolic-ref HEAD refs/heads/main` (or a symbolic link) writes nothing else: a commit
 * there would move `main`, or create any branch an unborn ref names. Always rewritten, so no
 * form of HEAD git would follow is missed. One that names a commit stays on it; one that names
 * none goes back to the teammate's own branch.
 */
export async function detachForCommit(record: Pick<WorktreeRecord, 'repo' | 'path' | 'branch'>): Promise<void> {
  const named = await git(record.path, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], [0, 1, 128]);
  const own = async () => (await git(record.repo, ['rev-parse', '--verify', `refs/heads/${record.branch}^{commit}`])).stdout.trim();
  const commit = Commit.safeParse(named.stdout.trim()).data ?? (await own());
  await git(record.path, ['update-ref', '--no-deref', '-m', 'teams: detached before committing leftovers', 'HEAD', commit]);
}

/**
 * Move the branch to the worktree's HEAD, when its directory is there and its HEAD is a commit.
 * Whatever a hostile teammate put there, this only ever moves its own branch to a commit.
 */
export async function syncWorktreeBranch(record: Pick<WorktreeRecord, 'repo' | 'path' | 'branch'>): Promise<void> {
  const listed = await listedHead(record).catch(() => undefined);
  if (listed === undefined) return;
  const type = await git(record.repo, ['cat-file', '-t', listed.head], [0, 128]);
  if (type.code !== 0 || type.stdout.trim() !== 'commit') return;
  await git(record.repo, ['update-ref', '-m', "teams: the worktree's HEAD", `refs/heads/${record.branch}`, listed.head]);
}
