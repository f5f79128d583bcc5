import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitGuard } from '../../src/sandbox/git-guard.js';

/** Which mounts the guard gives a linked worktree whose git directory lies outside it (the real sandbox: bwrap-worktree.test.ts). */
const base = realpathSync(mkdtempSync(join(tmpdir(), 'teams-linked-')));
after(() => rmSync(base, { recursive: true, force: true }));
const sh = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, '-c', 'user.name=h', '-c', 'user.email=h@example.invalid', ...args], { encoding: 'utf8' });

let count = 0;
function linked(): { worktree: string; common: string; gitdir: string } {
  const repo = join(base, `repo${count++}`);
  mkdirSync(repo);
  sh(repo, 'init', '-q');
  sh(repo, 'commit', '-q', '--allow-empty', '-m', 'start');
  const worktree = join(base, `wt${count}`);
  sh(repo, 'worktree', 'add', '-q', '-b', `b${count}`, worktree);
  const gitdir = join(repo, '.git', 'worktrees', `wt${count}`);
  return { worktree, common: join(repo, '.git'), gitdir };
}

describe('the git guard over a linked worktree', () => {
  test('binds what a commit writes, and binds read-only what git follows', () => {
    const { worktree, common, gitdir } = linked();
    writeFileSync(join(gitdir, 'config.worktree'), '');
    assert.deepEqual(gitGuard(worktree), [
      { flag: '--ro-bind', target: join(worktree, '.git') },
      { flag: '--bind', target: join(common, 'objects') },
      // What git reads of the common directory: read-only, every branch and tag with it.
      ...['refs', 'packed-refs', 'logs', 'config', 'info', 'shallow'].filter((name) => existsSync(join(common, name))).map((name) => ({ flag: '--ro-bind', target: join(common, name) })),
      { flag: '--bind', target: gitdir },
      { flag: '--ro-bind', target: join(gitdir, 'config.worktree') },
      { flag: '--ro-bind', target: join(gitdir, 'commondir') },
      { flag: '--ro-bind', target: join(gitdir, 'gitdir') },
    ]);
  });

  test('leaves it all read-only when config.worktree is missing (it could not be covered) or is a link', () => {
    const { worktree, gitdir } = linked();
    const pointerOnly = [{ flag: '--ro-bind', target: join(worktree, '.git') }];
    assert.deepEqual(gitGuard(worktree), pointerOnly);
    symlinkSync(join(base, 'elsewhere'), join(gitdir, 'config.worktree'));
    assert.deepEqual(gitGuard(worktree), pointerOnly);
  });
});
