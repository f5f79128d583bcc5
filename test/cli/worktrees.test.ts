import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { killAll } from '../helpers/children.js';
import { sh, teamWithWorktree as teamWith } from '../helpers/worktree-team.js';

after(killAll);

/** `teams member remove`, `diff`, `merge`, `discard` and `gc` on worktrees, with no lead running. */
describe('teams and worktrees, from the command line', () => {
  const base = mkdtempSync(join(tmpdir(), 'teams-cli-worktrees-'));
  after(() => rmSync(base, { recursive: true, force: true }));
  const teamWithWorktree = (name: string) => teamWith(base, name);

  test('member remove keeps an unmerged worktree and says so; merge still finds it by name', async () => {
    const { repo, home, path } = await teamWithWorktree('alice');
    writeFileSync(join(path, 'work.txt'), 'work\n');
    const removed = await runCli(home, ['member', 'remove', 'alice']);
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /alice's worktree is kept: what it left uncommitted was committed; teams\/default\/alice has 1 commit not merged/);
    assert.match((await runCli(home, ['status'])).stdout, /worktrees:\n {2}alice {2}teams\/default\/alice {2}1 unmerged commit/);
    const diff = await runCli(home, ['diff', 'alice']);
    assert.match(diff.stdout, /\+\+\+ b\/work\.txt/, diff.stderr);
    const merged = await runCli(home, ['merge', 'alice']);
    assert.equal(merged.code, 0, merged.stderr);
    assert.equal(readFileSync(join(repo, 'work.txt'), 'utf8'), 'work\n');
    assert.equal(existsSync(path), false);
  });

  test('member remove with nothing unmerged removes the worktree and branch', async () => {
    const { repo, home, path } = await teamWithWorktree('bob');
    const removed = await runCli(home, ['member', 'remove', 'bob']);
    assert.match(removed.stdout, /bob's worktree was removed \(nothing unmerged\)/);
    assert.equal(existsSync(path), false);
    assert.equal(sh(repo, 'branch', '--list', 'teams/default/bob'), '');
  });

  test("a merge git refuses over an untracked file in the lead's tree is a clear refusal (exit 2) and merges nothing", async () => {
    const { repo, home, path } = await teamWithWorktree('erin');
    writeFileSync(join(path, 'checklist.md'), 'from erin\n');
    sh(path, 'add', 'checklist.md');
    sh(path, 'commit', '-q', '-m', 'checklist');
    writeFileSync(join(repo, 'checklist.md'), 'the human\'s own\n');
    const head = sh(repo, 'rev-parse', 'HEAD');
    const merge = await runCli(home, ['merge', 'erin']);
    assert.equal(merge.code, 2, merge.stderr);
    assert.equal(merge.stderr, "teams: merging erin's work was refused by git: untracked files in your tree would be overwritten: checklist.md; move or remove them, then merge again. Nothing was merged.\n");
    assert.equal(sh(repo, 'rev-parse', 'HEAD'), head);
    assert.equal(readFileSync(join(repo, 'checklist.md'), 'utf8'), "the human's own\n");
    assert.equal(sh(repo, 'status', '--porcelain', '--untracked-files=no'), '');
    assert.equal(existsSync(join(repo, '.git', 'MERGE_HEAD')), false);
    assert.ok(existsSync(path), 'her worktree is kept');
    assert.notEqual(sh(repo, 'branch', '--list', 'teams/default/erin'), '');
  });

  test('merged, a worktree git will not remove (locked) is kept and said, exit 0, not a raw git error', async () => {
    const { repo, home, path } = await teamWithWorktree('ivy');
    writeFileSync(join(path, 'ivy.md'), 'from ivy\n');
    sh(repo, 'worktree', 'lock', path);
    const merged = await runCli(home, ['merge', 'ivy']);
    assert.equal(merged.code, 0, merged.stderr);
    assert.match(merged.stdout, /^ivy: merged 1 commit of teams\/default\/ivy into your branch; its worktree and branch are kept, git would not remove them \(.*locked.*\)\n$/s);
    assert.doesNotMatch(merged.stdout, /failed in|--force/, "git's words, not its command line");
    assert.equal(readFileSync(join(repo, 'ivy.md'), 'utf8'), 'from ivy\n');
    assert.ok(existsSync(path));
  });

  /** A teammate's worktree with one commit on its branch, whose directory is then removed by hand. */
  const committedThenGone = async (name: string) => {
    const made = await teamWithWorktree(name);
    writeFileSync(join(made.path, `${name}.md`), `from ${name}\n`);
    sh(made.path, 'add', `${name}.md`);
    sh(made.path, 'commit', '-q', '-m', name);
    rmSync(made.path, { recursive: true, force: true });
    return made;
  };

  test('its directory removed by hand, its branch is still its work: status lists it, diff shows it, gc keeps it, merge lands it and prunes the entry', async () => {
    const { repo, home } = await committedThenGone('fay');
    assert.match(sh(repo, 'worktree', 'list'), /prunable/);
    assert.match((await runCli(home, ['status'])).stdout, /worktrees:\n {2}fay {2}teams\/default\/fay {2}1 unmerged commit, its directory gone/);
    const diff = await runCli(home, ['diff', 'fay']);
    assert.equal(diff.code, 0, diff.stderr);
    assert.match(diff.stdout, /\+\+\+ b\/fay\.md\n@@ -0,0 \+1 @@\n\+from fay/);
    const gc = await runCli(home, ['gc']);
    assert.equal(gc.stdout, 'no worktree removed\nkept fay: its worktree directory is gone, but teams/default/fay has 1 unmerged commit (teams merge/discard fay)\n', gc.stderr);
    assert.doesNotMatch(sh(repo, 'worktree', 'list'), /prunable/, 'gc forgot the stale entry');
    const merged = await runCli(home, ['merge', 'fay']);
    assert.equal(merged.code, 0, merged.stderr);
    assert.match(merged.stdout, /fay: merged 1 commit of teams\/default\/fay into your branch/);
    assert.equal(readFileSync(join(repo, 'fay.md'), 'utf8'), 'from fay\n');
    assert.equal(sh(repo, 'branch', '--list', 'teams/default/fay'), '');
    assert.doesNotMatch((await runCli(home, ['status'])).stdout, /worktrees:/);
  });

  test('its directory gone and it off the roster: status still lists its branch, discard deletes it and the stale entry, gc then removes a merged one', async () => {
    const { repo, home, path } = await committedThenGone('gus');
    assert.equal((await runCli(home, ['member', 'remove', 'gus'])).code, 0);
    assert.match((await runCli(home, ['status'])).stdout, /gus {2}teams\/default\/gus {2}1 unmerged commit, its directory gone/);
    const discard = await runCli(home, ['discard', 'gus']);
    assert.equal(discard.code, 0, discard.stderr);
    assert.match(discard.stdout, /discarded gus's work/);
    assert.equal(sh(repo, 'branch', '--list', 'teams/default/gus'), '');
    assert.equal(sh(repo, 'worktree', 'list', '--porcelain').includes(path), false);
    assert.equal((await runCli(home, ['discard', 'gus'])).code, 2, 'gone now');

    // A merged branch whose directory is gone: gc deletes it.
    const { path: again } = await teamWithWorktree('hal');
    rmSync(again, { recursive: true, force: true });
    const gc = await runCli(join(base, 'hal', '.teams'), ['gc']);
    assert.equal(gc.stdout, 'removed: hal\n', gc.stderr);
    assert.equal(sh(join(base, 'hal'), 'branch', '--list', 'teams/default/hal'), '');
  });

  test('a member without a worktree, an unknown name, a bad name: exit 2 with the reason', async () => {
    const { home } = await teamWithWorktree('carol');
    await runCli(home, ['member', 'add', 'dave', '--role', 'tester']);
    const none = await runCli(home, ['merge', 'dave']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /dave has no worktree \(spawn it with --worktree/);
    const unknown = await runCli(home, ['discard', 'carlo']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no member named 'carlo'.*carol/);
    assert.equal((await runCli(home, ['diff', 'Carol!'])).code, 2);
    assert.equal((await runCli(home, ['gc'])).stdout, 'removed: carol\n');
  });
});
