import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitGuard, type GuardMount } from '../../src/sandbox/git-guard.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'teams-git-guard-')));
after(() => rmSync(base, { recursive: true, force: true }));

let count = 0;
function repo(): string {
  const dir = join(base, `r${count++}`);
  mkdirSync(dir);
  execFileSync('git', ['init', '-q', dir]);
  return dir;
}

/** The guard as `flag path-relative-to-dir` lines, for readable comparisons. */
function shown(dir: string, mounts: GuardMount[]): string[] {
  return mounts.map((m) => `${m.flag} ${m.target.startsWith(`${dir}/`) ? m.target.slice(dir.length + 1) : m.target}`);
}

describe('gitGuard', () => {
  test('no .git: nothing to guard', () => {
    const dir = join(base, 'plain');
    mkdirSync(dir);
    assert.deepEqual(gitGuard(dir), []);
  });

  test('a repository: .git bound onto itself, its config and hooks read-only', () => {
    const dir = repo();
    assert.deepEqual(shown(dir, gitGuard(dir)), ['--bind .git', '--ro-bind .git/config', '--ro-bind .git/hooks']);
  });

  test('no hooks directory: an empty read-only tmpfs takes its place; commondir and config.worktree are guarded when present', () => {
    const dir = repo();
    rmSync(join(dir, '.git/hooks'), { recursive: true });
    writeFileSync(join(dir, '.git/config.worktree'), '');
    assert.deepEqual(shown(dir, gitGuard(dir)), ['--bind .git', '--ro-bind .git/config', '--ro-bind .git/config.worktree', '--tmpfs .git/hooks']);
  });

  test('linked worktrees and submodules kept in .git are guarded too, every directory down to them bound onto itself', () => {
    const dir = repo();
    const wt = join(dir, '.git/worktrees/feature');
    mkdirSync(wt, { recursive: true });
    writeFileSync(join(wt, 'commondir'), '../..\n');
    writeFileSync(join(wt, 'HEAD'), 'ref: refs/heads/feature\n');
    const sub = join(dir, '.git/modules/libs/a');
    mkdirSync(join(sub, 'hooks'), { recursive: true });
    writeFileSync(join(sub, 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(sub, 'config'), '');
    assert.deepEqual(shown(dir, gitGuard(dir)), [
      '--bind .git',
      '--ro-bind .git/config',
      '--ro-bind .git/hooks',
      '--bind .git/worktrees/feature',
      '--bind .git/worktrees',
      '--ro-bind .git/worktrees/feature/commondir',
      '--bind .git/modules/libs/a',
      '--bind .git/modules/libs',
      '--bind .git/modules',
      '--ro-bind .git/modules/libs/a/config',
      '--ro-bind .git/modules/libs/a/hooks',
    ]);
  });

  test('a .git file is bound read-only; the directory it names is guarded when it lies inside', () => {
    const dir = join(base, 'pointer');
    mkdirSync(dir);
    execFileSync('git', ['init', '-q', '--separate-git-dir', join(dir, '.repo'), dir]);
    assert.deepEqual(shown(dir, gitGuard(dir)), ['--ro-bind .git', '--bind .repo', '--ro-bind .repo/config', '--ro-bind .repo/hooks']);

    const outside = join(base, 'pointer-out');
    mkdirSync(outside);
    execFileSync('git', ['init', '-q', '--separate-git-dir', join(base, 'elsewhere.git'), outside]);
    assert.deepEqual(shown(outside, gitGuard(outside)), ['--ro-bind .git']);
  });

  test('a .git file that is not a pointer is still bound read-only', () => {
    const dir = join(base, 'junk');
    mkdirSync(dir);
    writeFileSync(join(dir, '.git'), 'not a pointer');
    assert.deepEqual(shown(dir, gitGuard(dir)), ['--ro-bind .git']);
  });

  test('a guarded entry that is a symbolic link: the git directory read-only whole, since a link can be replaced', () => {
    const dir = repo();
    mkdirSync(join(dir, 'githooks'));
    rmSync(join(dir, '.git/hooks'), { recursive: true });
    symlinkSync('../githooks', join(dir, '.git/hooks'));
    assert.deepEqual(shown(dir, gitGuard(dir)), ['--ro-bind .git']);
  });

  test('a linked worktree kept through a symbolic link: the git directory read-only whole', () => {
    const dir = repo();
    mkdirSync(join(dir, 'wt-store'));
    mkdirSync(join(dir, '.git/worktrees'));
    symlinkSync('../../wt-store', join(dir, '.git/worktrees/feature'));
    assert.deepEqual(shown(dir, gitGuard(dir)), ['--ro-bind .git']);
  });

  test('.git as a link to a directory inside: that directory read-only whole', () => {
    const dir = join(base, 'linked');
    mkdirSync(dir);
    execFileSync('git', ['init', '-q', '--bare', join(dir, 'store.git')]);
    symlinkSync('store.git', join(dir, '.git'));
    assert.deepEqual(shown(dir, gitGuard(dir)), ['--ro-bind store.git']);
  });

  test('a working directory given by a link is guarded on its real path', () => {
    const dir = repo();
    const link = join(base, 'via-link');
    symlinkSync(dir, link);
    assert.deepEqual(shown(dir, gitGuard(link)), ['--bind .git', '--ro-bind .git/config', '--ro-bind .git/hooks']);
  });
});
