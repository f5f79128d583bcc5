import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FULL_GRANT } from '../../src/policy/grant.js';
import { launcherFor } from '../../src/sandbox/launcher.js';
import { probeSandbox } from '../../src/sandbox/probe.js';
import { realShellIO } from '../../src/tools/shell.js';
import { teamPaths } from '../../src/team/paths.js';
import { commitLeftovers, createWorktree } from '../../src/worktree/worktree.js';

/**
 * A worktree teammate's HEAD lives in its own git directory, which its approved commands may
 * write: it can make that HEAD a symbolic ref to `main` (`git symbolic-ref HEAD refs/heads/main`
 * needs no ref written; so does a symbolic link to `refs/heads/main`). The harness then commits its leftovers there, outside the sandbox:
 * that commit must not move `main`. Outside /tmp, as in bwrap-worktree-refs.test.ts.
 */
const base = mkdtempSync('/var/tmp/teams-bwrap-symref-');
const IDENTITY = ['-c', 'user.name=human', '-c', 'user.email=human@example.invalid'];
const gitOut = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8' }).trim();

before(() => {
  const probe = probeSandbox('bwrap', 'on');
  assert.ok(probe.ok, `bubblewrap must work here: ${probe.ok ? '' : probe.reason}`);
});

after(() => rmSync(base, { recursive: true, force: true }));

describe("a worktree teammate's HEAD made a symbolic ref to main", () => {
  const attacks = [
    ['to main', 'git symbolic-ref HEAD refs/heads/main'],
    ['to a branch not yet made', 'git symbolic-ref HEAD refs/heads/evil'],
    ['by a symbolic link', 'ln -sfn refs/heads/main "$(git rev-parse --absolute-git-dir)/HEAD"'],
  ] as const;
  for (const [how, attackCommand] of attacks) test(`${how}: the harness's commit of its leftovers moves its own branch, never another`, async () => {
    const repo = join(base, how.replace(/\W+/g, '-'));
    mkdirSync(repo);
    execFileSync('git', ['init', '-q', '-b', 'main', repo]);
    writeFileSync(join(repo, 'README'), 'hello\n');
    execFileSync('git', ['-C', repo, 'add', 'README']);
    execFileSync('git', ['-C', repo, ...IDENTITY, 'commit', '-q', '-m', 'start']);
    const paths = teamPaths(join(repo, '.teams'), 'crew');
    const alice = await createWorktree(repo, paths, 'alice');
    const shell = realShellIO({
      timeoutMs: 20_000,
      launch: launcherFor({ kind: 'bwrap', network: 'on', bwrap: 'bwrap' }, () => ({ writable: true, hidden: [paths.home] })),
    });
    const main = gitOut(repo, 'rev-parse', 'refs/heads/main');

    const attack = await shell.exec(`${attackCommand} && echo evil > evil.txt && echo done`, { cwd: alice.path, grant: FULL_GRANT });
    assert.equal(attack.stdout, 'done\n', attack.stderr);
    const refs = gitOut(repo, 'for-each-ref', '--format=%(refname)', 'refs/heads');

    const { committed } = await commitLeftovers(alice, 'alice');
    assert.equal(committed, true);
    assert.equal(gitOut(repo, 'rev-parse', 'refs/heads/main'), main, "the harness's commit moved main");
    assert.equal(gitOut(repo, 'for-each-ref', '--format=%(refname)', 'refs/heads'), refs, "the harness's commit made a branch");
    assert.equal(gitOut(repo, 'show', `refs/heads/${alice.branch}:evil.txt`), 'evil', 'the leftovers are on its own branch');
  });
});
