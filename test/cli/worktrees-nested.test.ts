import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { killAll } from '../helpers/children.js';
import { sh, teamWithWorktree as teamWith } from '../helpers/worktree-team.js';

after(killAll);

/**
 * A hostile teammate's worktree holding a repository of its own, whose config names programs
 * (fsmonitor, hooks, a clean filter its `.gitattributes` selects, an external diff, textconv):
 * the harness's git, run as the human by `teams status`, `diff`, `merge` and `member remove`
 * (the leftover commit), runs none of them, never adds it as a gitlink, and a merge that would
 * bring one is refused with its path named, exit 2, nothing merged.
 */
describe("nested repositories in a teammate's worktree", () => {
  const base = mkdtempSync(join(tmpdir(), 'teams-cli-nested-'));
  after(() => rmSync(base, { recursive: true, force: true }));
  const teamWithWorktree = (name: string) => teamWith(base, name);

  /** A repository at `<worktree>/vendor/evil` whose every configured program touches `marker`. */
  function plantNested(worktree: string, marker: string): string {
    const nested = join(worktree, 'vendor', 'evil');
    mkdirSync(nested, { recursive: true });
    sh(nested, 'init', '-q', '-b', 'main');
    writeFileSync(join(nested, 'data.txt'), 'aaaa\n');
    writeFileSync(join(nested, '.gitattributes'), '* filter=evil diff=evil\n');
    sh(nested, 'add', '.');
    sh(nested, 'commit', '-q', '-m', 'nested');
    const hooks = join(nested, '.git', 'evil-hooks');
    mkdirSync(hooks);
    for (const hook of ['pre-commit', 'post-commit', 'post-merge', 'post-checkout', 'reference-transaction', 'pre-auto-gc']) {
      writeFileSync(join(hooks, hook), `#!/bin/sh\ntouch ${marker}\n`);
      chmodSync(join(hooks, hook), 0o755);
    }
    const program = `sh -c 'touch ${marker}; cat'`;
    for (const [key, value] of [
      ['core.fsmonitor', `touch ${marker}`],
      ['core.hooksPath', hooks],
      ['filter.evil.clean', program],
      ['filter.evil.smudge', program],
      ['filter.evil.required', 'true'],
      ['diff.evil.textconv', program],
      ['diff.external', program],
    ] as const) sh(nested, 'config', key, value);
    // Modified in place, same size and time as before: git must read (and filter) it to know.
    writeFileSync(join(nested, 'data.txt'), 'bbbb\n');
    return nested;
  }

  test('committed by the teammate as a gitlink: status, diff and merge run nothing from it; diff warns, merge refuses', async () => {
    const { repo, home, path } = await teamWithWorktree('mallory');
    const marker = join(base, 'ran-committed');
    plantNested(path, marker);
    // What the teammate's sandboxed `git add . && git commit` would record: a gitlink.
    sh(path, 'add', 'vendor/evil');
    writeFileSync(join(path, '.gitmodules'), '[submodule "evil"]\n\tpath = vendor/evil\n\turl = ./vendor/evil\n\tignore = none\n');
    writeFileSync(join(path, 'work.txt'), 'work\n');
    sh(path, 'add', '.gitmodules', 'work.txt');
    sh(path, 'commit', '-q', '-m', 'with a submodule');
    assert.equal(existsSync(marker), false, 'the set-up itself ran a program');

    const status = await runCli(home, ['status']);
    assert.equal(status.code, 0, status.stderr);
    const diff = await runCli(home, ['diff', 'mallory']);
    assert.equal(diff.code, 0, diff.stderr);
    assert.match(diff.stdout, /^WARNING: mallory's work holds other repositories, which teams never adds, merges or runs git in:\n/);
    assert.match(diff.stdout, /\n {2}\.gitmodules \(submodule definitions\)\n {2}vendor\/evil \(a gitlink/);
    assert.match(diff.stdout, /\+\+\+ b\/work\.txt/);
    const head = sh(repo, 'rev-parse', 'HEAD');
    const merge = await runCli(home, ['merge', 'mallory']);
    assert.equal(merge.code, 2, merge.stdout);
    assert.match(merge.stderr, /vendor\/evil .*Nothing was merged/);
    assert.equal(sh(repo, 'rev-parse', 'HEAD'), head, 'nothing merged');
    assert.equal(existsSync(join(repo, 'work.txt')), false);
    assert.ok(existsSync(path), 'the worktree is kept for the human to look at');
    assert.equal(existsSync(marker), false, "a program from the nested repository's config ran as the human");
  });

  test('left uncommitted: the leftover commit at exit leaves it out and says so; diff names it; merge refuses', async () => {
    const { repo, home, path } = await teamWithWorktree('trudy');
    const marker = join(base, 'ran-left');
    plantNested(path, marker);
    writeFileSync(join(path, 'work.txt'), 'work\n');
    const diff = await runCli(home, ['diff', 'trudy']);
    assert.match(diff.stdout, /^WARNING: .*\n {2}vendor\/evil\/ \(a nested git repository, left out of trudy's commits\)/);
    const removed = await runCli(home, ['member', 'remove', 'trudy']);
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /nested git repositories left out of its commits, never added: vendor\/evil/);
    const tree = sh(repo, 'ls-tree', '-r', 'teams/default/trudy');
    assert.match(tree, /\twork\.txt\n/);
    assert.doesNotMatch(tree, /^160000|vendor/m, 'the nested repository was added');
    const merge = await runCli(home, ['merge', 'trudy']);
    assert.equal(merge.code, 2, merge.stdout);
    assert.match(merge.stderr, /vendor\/evil\/ \(a nested git repository/);
    assert.equal(existsSync(join(repo, 'work.txt')), false);
    assert.equal(existsSync(marker), false, "a program from the nested repository's config ran as the human");
  });
});
