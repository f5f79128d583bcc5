import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, GitError, repositoryRoot } from '../../src/lib/git.js';
import { Refused } from '../../src/lib/refused.js';
import { teamPaths } from '../../src/team/paths.js';
import { commitLeftovers, createWorktree, settleWorktree } from '../../src/worktree/worktree.js';
import { worktreeDiff } from '../../src/worktree/land.js';
import { collectWorktrees, leftoverWorktrees } from '../../src/worktree/leftovers.js';
import { formatWorktrees } from '../../src/present/format.js';
import { processStartTime } from '../../src/lib/proc-start.js';
import { Member } from '../../src/store/roster.js';
import { mergeWorktree, refusalReason } from '../../src/worktree/merge.js';

/** The git module and a teammate's worktree's life, on real repositories in a temp directory. */
const base = mkdtempSync(join(tmpdir(), 'teams-worktree-'));
after(() => rmSync(base, { recursive: true, force: true }));
const IDENTITY = ['-c', 'user.name=human', '-c', 'user.email=human@example.invalid'];
const sh = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...IDENTITY, ...args], { encoding: 'utf8' });

let count = 0;
/** A repository with one commit, and a state root inside it (as ./.teams is). */
function project(): { repo: string; paths: ReturnType<typeof teamPaths> } {
  const repo = join(base, `p${count++}`);
  mkdirSync(repo);
  sh(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'README'), 'start\n');
  sh(repo, 'add', 'README');
  sh(repo, 'commit', '-q', '-m', 'start');
  return { repo, paths: teamPaths(join(repo, '.teams'), 'crew') };
}

describe('the git module', () => {
  test("a failure is a GitError carrying git's own words; an exit listed as an answer is returned", async () => {
    const { repo } = project();
    await assert.rejects(git(repo, ['rev-parse', '--verify', 'no-such-branch']), (error: unknown) => error instanceof GitError && /git rev-parse --verify no-such-branch failed in .*: fatal: Needed a single revision/.test(error.message));
    assert.equal((await git(repo, ['diff', '--quiet', 'HEAD'], [0, 1])).code, 0);
  });

  test('git missing is said plainly', async () => {
    await assert.rejects(git(base, ['status'], [0], { PATH: join(base, 'nowhere') }), /git is not installed \(or not on the PATH\)/);
  });

  test('outside a repository there is no root', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'teams-no-repo-'));
    try {
      assert.equal(await repositoryRoot(outside), undefined);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe("a teammate's worktree", () => {
  test('is made on its own branch from HEAD, under the state root, with an empty config.worktree', async () => {
    const { repo, paths } = project();
    const record = await createWorktree(repo, paths, 'alice');
    assert.deepEqual(record, { path: join(paths.root, 'worktrees', 'alice'), branch: 'teams/crew/alice', base: sh(repo, 'rev-parse', 'HEAD').trim(), repo });
    assert.equal(readFileSync(join(record.path, 'README'), 'utf8'), 'start\n');
    assert.equal(readFileSync(join(repo, '.git', 'worktrees', 'alice', 'config.worktree'), 'utf8'), '');
    // A branch left from an earlier alice is never overwritten.
    rmSync(record.path, { recursive: true });
    sh(repo, 'worktree', 'prune');
    await assert.rejects(createWorktree(repo, paths, 'alice'), /the branch teams\/crew\/alice is left from an earlier alice: merge or discard it first/);
  });

  test('is refused outside a repository, and in one without a commit', async () => {
    const bare = join(base, `p${count++}`);
    mkdirSync(bare);
    await assert.rejects(createWorktree(bare, teamPaths(join(bare, '.teams'), 'crew'), 'alice'), (error: unknown) => error instanceof Refused && /is not in a git repository/.test(error.message));
    sh(bare, 'init', '-q');
    await assert.rejects(createWorktree(bare, teamPaths(join(bare, '.teams'), 'crew'), 'alice'), /has no commit yet to start it from/);
  });

  test("leftovers are committed as the harness, and no hook runs (the repository's, or one core.hooksPath names)", async () => {
    const { repo, paths } = project();
    const record = await createWorktree(repo, paths, 'alice');
    assert.deepEqual(await commitLeftovers(record, 'alice'), { committed: false, nested: [] }, 'nothing to commit');
    const marker = join(base, `hook-ran-${count}`);
    for (const dir of [join(repo, '.git', 'hooks'), join(base, `hooks${count}`)]) {
      mkdirSync(dir, { recursive: true });
      for (const hook of ['pre-commit', 'commit-msg', 'post-commit']) {
        writeFileSync(join(dir, hook), `#!/bin/sh\ntouch ${marker}\n`);
        chmodSync(join(dir, hook), 0o755);
      }
    }
    sh(repo, 'config', 'core.hooksPath', join(base, `hooks${count}`));
    writeFileSync(join(record.path, 'new.txt'), 'new\n');
    writeFileSync(join(record.path, 'README'), 'changed\n');
    assert.deepEqual(await commitLeftovers(record, 'alice'), { committed: true, nested: [] });
    assert.equal(existsSync(marker), false, 'a hook ran');
    assert.equal(sh(repo, 'log', '-1', '--format=%an <%ae>: %s', record.branch), 'teams <teams@localhost>: teams: what alice left uncommitted\n');
    assert.equal(sh(repo, 'show', '--format=', '--name-only', record.branch), 'README\nnew.txt\n');
  });

  test('settled: removed with its branch when nothing is unmerged, kept when something is', async () => {
    const { repo, paths } = project();
    const idle = await createWorktree(repo, paths, 'idle');
    assert.deepEqual(await settleWorktree(idle, 'idle'), { committed: false, kept: false, unmerged: 0, nested: [] });
    assert.equal(existsSync(idle.path), false);
    assert.equal(sh(repo, 'branch', '--list', idle.branch), '');
    assert.equal(await settleWorktree(idle, 'idle'), undefined, 'gone already');

    const busy = await createWorktree(repo, paths, 'busy');
    writeFileSync(join(busy.path, 'work.txt'), 'work\n');
    assert.deepEqual(await settleWorktree(busy, 'busy'), { committed: true, kept: true, unmerged: 1, nested: [] });
    assert.ok(existsSync(join(busy.path, 'work.txt')));
  });

  test("a .git/commondir in the lead's repository (a command wrote it) is refused before any worktree is made or merged", async () => {
    const { repo, paths } = project();
    const record = await createWorktree(repo, paths, 'alice');
    writeFileSync(join(record.path, 'work.txt'), 'work\n');
    const elsewhere = join(base, `elsewhere-${count}`);
    // A git directory of the command's making, config and hooks its own.
    execFileSync('git', ['init', '-q', '--bare', elsewhere]);
    writeFileSync(join(repo, '.git', 'commondir'), `${elsewhere}\n`);
    await assert.rejects(createWorktree(repo, paths, 'bob'), (error: unknown) => error instanceof Refused && /\.git\/commondir exists/.test(error.message));
    await assert.rejects(mergeWorktree(record, 'alice'), (error: unknown) => error instanceof Refused && /\.git\/commondir exists/.test(error.message));
    assert.equal(existsSync(join(repo, 'work.txt')), false);
  });

  test("a driver the repository's config defines runs for none of the harness's git, whatever a teammate's .gitattributes selects", async () => {
    const { repo, paths } = project();
    const marker = join(base, `driver-ran-${count}`);
    const program = `sh -c 'touch ${marker}; cat'`;
    for (const [key, value] of [['filter.x.clean', program], ['filter.x.smudge', program], ['filter.x.required', 'true'], ['diff.x.textconv', program], ['merge.x.driver', program]] as const) sh(repo, 'config', key, value);
    const record = await createWorktree(repo, paths, 'alice');
    writeFileSync(join(record.path, '.gitattributes'), '* filter=x diff=x\n');
    writeFileSync(join(record.path, 'README'), 'edited\n');
    const { diff } = await worktreeDiff(record, 'alice');
    assert.match(diff, /\+edited/);
    assert.deepEqual(await commitLeftovers(record, 'alice'), { committed: true, nested: [] });
    assert.equal(sh(repo, 'show', `${record.branch}:README`), 'edited\n', 'stored as written, unfiltered');
    assert.equal(existsSync(marker), false, 'a configured driver ran as the human');
  });

  test("its diff holds commits, uncommitted changes and new files, and leaves the teammate's index alone", async () => {
    const { repo, paths } = project();
    const record = await createWorktree(repo, paths, 'alice');
    writeFileSync(join(record.path, 'committed.txt'), 'c\n');
    sh(record.path, 'add', 'committed.txt');
    sh(record.path, 'commit', '-q', '-m', 'c');
    writeFileSync(join(record.path, 'README'), 'edited\n');
    writeFileSync(join(record.path, 'untracked.txt'), 'u\n');
    const status = sh(record.path, 'status', '--porcelain');
    const { diff, warning } = await worktreeDiff(record, 'alice');
    assert.equal(warning, undefined);
    assert.match(diff, /\+\+\+ b\/committed\.txt/);
    assert.match(diff, /-start\n\+edited/);
    assert.match(diff, /\+\+\+ b\/untracked\.txt/);
    assert.equal(sh(record.path, 'status', '--porcelain'), status);
  });

  test("a merge is refused over the lead's uncommitted changes; a conflict is aborted, whole; a clean one lands and removes the worktree", async () => {
    const { repo, paths } = project();
    const record = await createWorktree(repo, paths, 'alice');
    writeFileSync(join(record.path, 'README'), 'alice\n');
    writeFileSync(join(repo, 'README'), 'dirty\n');
    await assert.rejects(mergeWorktree(record, 'alice'), /has uncommitted changes: commit or stash them before merging alice's work/);
    sh(repo, 'commit', '-q', '-am', 'human');
    const head = sh(repo, 'rev-parse', 'HEAD');
    await assert.rejects(mergeWorktree(record, 'alice'), /conflicts in README\): nothing was merged/);
    assert.equal(sh(repo, 'rev-parse', 'HEAD'), head);
    assert.equal(sh(repo, 'status', '--porcelain', '--untracked-files=no'), '');
    assert.ok(existsSync(record.path), 'kept after a failed merge');

    const bob = await createWorktree(repo, paths, 'bob');
    writeFileSync(join(bob.path, 'bob.txt'), 'bob\n');
    assert.deepEqual(await mergeWorktree(bob, 'bob'), { merged: 1 });
    assert.equal(readFileSync(join(repo, 'bob.txt'), 'utf8'), 'bob\n');
    assert.equal(existsSync(bob.path), false);
  });

  test("git's refusals of a merge are put in words: files in the way named, anything else its first line", () => {
    const untracked = 'error: The following untracked working tree files would be overwritten by merge:\n\ta.md\n\tdocs/b.md\nPlease move or remove them before you merge.\nAborting\n';
    assert.equal(refusalReason(untracked), 'untracked files in your tree would be overwritten: a.md, docs/b.md; move or remove them, then merge again');
    const local = 'error: Your local changes to the following files would be overwritten by merge:\n\tREADME\nPlease commit your changes or stash them before you merge.\nAborting\n';
    assert.equal(refusalReason(local), 'uncommitted changes in your tree would be overwritten: README; commit or stash them, then merge again');
    assert.equal(refusalReason('\nfatal: refusing to merge unrelated histories\n'), 'fatal: refusing to merge unrelated histories; your tree is as it was');
    assert.equal(refusalReason(''), 'git gave no reason');
  });

  test("a running teammate's worktree with only uncommitted changes is not called merged", async () => {
    const { repo, paths } = project();
    const record = await createWorktree(repo, paths, 'busy');
    await createWorktree(repo, paths, 'done');
    writeFileSync(join(record.path, 'draft.md'), 'draft\n');
    // This test's own process stands in for the running teammate.
    const now = new Date().toISOString();
    const busy = Member.parse({ name: 'busy', role: 'coder', status: 'working', model: null, created_at: now, status_since: now, pid: process.pid, pid_start: processStartTime(process.pid), worktree: record });
    const listed = formatWorktrees(await leftoverWorktrees(paths, [busy]));
    assert.match(listed, /^ {2}busy {2}teams\/crew\/busy {2}no commits to merge yet, uncommitted changes, running {2}/m);
    assert.match(listed, /^ {2}done {2}teams\/crew\/done {2}merged {2}/m);
    assert.match(formatWorktrees(await leftoverWorktrees(paths)), /^ {2}busy {2}teams\/crew\/busy {2}no commits to merge yet, uncommitted changes {2}/m);
  });

  test('gc removes merged leftovers, keeps unmerged and running ones, and says why', async () => {
    const { repo, paths } = project();
    await createWorktree(repo, paths, 'done');
    const unmerged = await createWorktree(repo, paths, 'unmerged');
    writeFileSync(join(unmerged.path, 'x'), 'x\n');
    await createWorktree(repo, paths, 'running');
    assert.deepEqual((await leftoverWorktrees(paths)).map((w) => [w.name, w.unmerged]), [['done', 0], ['running', 0], ['unmerged', 0]]);
    const { removed, kept } = await collectWorktrees(paths, new Set(['running']));
    assert.deepEqual(removed, ['done']);
    assert.deepEqual(kept, ['running: it is running', 'unmerged: teams/crew/unmerged has 1 unmerged commit (teams merge/discard unmerged)']);
  });
});
