import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FULL_GRANT } from '../../src/policy/grant.js';
import { launcherFor } from '../../src/sandbox/launcher.js';
import { probeSandbox } from '../../src/sandbox/probe.js';
import { realShellIO, type ExecResult } from '../../src/tools/shell.js';
import { teamPaths } from '../../src/team/paths.js';
import { createWorktree } from '../../src/worktree/worktree.js';
import { worktreeDiff } from '../../src/worktree/land.js';
import { mergeWorktree } from '../../src/worktree/merge.js';
import { syncWorktreeBranch } from '../../src/worktree/head.js';

/**
 * A worktree teammate moves only its own branch: with write granted (an approved command), a
 * sandboxed command in its worktree cannot move `main`, another teammate's branch or a tag, by
 * git or by writing the files; it still commits, and the harness's diff and merge see its
 * commits. Outside /tmp, as in bwrap-git.test.ts.
 */
const base = mkdtempSync('/var/tmp/teams-bwrap-refs-');
const IDENTITY = '-c user.name=teammate -c user.email=teammate@example.invalid';
const codes = (result: ExecResult): number[] => [...result.stdout.matchAll(/^rc=(\d+)$/gm)].map((m) => Number(m[1]));
const gitOut = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8' }).trim();

before(() => {
  const probe = probeSandbox('bwrap', 'on');
  assert.ok(probe.ok, `bubblewrap must work here: ${probe.ok ? '' : probe.reason}`);
});

after(() => rmSync(base, { recursive: true, force: true }));

describe("a sandboxed command in a teammate's worktree and the repository's refs", () => {
  test('cannot move main, a tag or another teammate\'s branch; commits on its own, which diff and merge see', async () => {
    const repo = join(base, 'lead');
    mkdirSync(repo);
    execFileSync('git', ['init', '-q', '-b', 'main', repo]);
    writeFileSync(join(repo, 'README'), 'hello\n');
    execFileSync('git', ['-C', repo, 'add', 'README']);
    execFileSync('git', ['-C', repo, ...IDENTITY.split(' '), 'commit', '-q', '-m', 'start']);
    execFileSync('git', ['-C', repo, 'tag', 'v1']);
    const paths = teamPaths(join(repo, '.teams'), 'crew');
    const alice = await createWorktree(repo, paths, 'alice');
    const bob = await createWorktree(repo, paths, 'bob');
    const shell = realShellIO({
      timeoutMs: 20_000,
      launch: launcherFor({ kind: 'bwrap', network: 'on', bwrap: 'bwrap' }, () => ({ writable: true, hidden: [paths.home] })),
    });
    const before = gitOut(repo, 'for-each-ref', '--format=%(refname) %(objectname)');
    const common = join(repo, '.git');

    // Something to point the refs at: a commit of its own, on its detached HEAD.
    const committed = await shell.exec(`echo evil > evil.txt && git add evil.txt && git ${IDENTITY} commit -q -m evil && echo committed`, { cwd: alice.path, grant: FULL_GRANT });
    assert.equal(committed.stdout, 'committed\n', committed.stderr);
    const attacks = [
      'git update-ref refs/heads/main HEAD',
      'git branch -f main HEAD',
      'git push -q . HEAD:main',
      'git push -q . HEAD:refs/heads/teams/crew/bob',
      'git update-ref refs/heads/teams/crew/bob HEAD',
      'git tag -f v1 HEAD',
      'git branch evil HEAD',
      'git checkout -q -b evil2',
      'git pack-refs --all',
      `git rev-parse HEAD > ${common}/refs/heads/main`,
      `git rev-parse HEAD > ${common}/refs/heads/teams/crew/bob`,
      `git rev-parse HEAD > ${common}/refs/tags/v1`,
      `echo "$(git rev-parse HEAD) refs/heads/main" >> ${common}/packed-refs`,
      `rm -f ${common}/refs/heads/main`,
    ];
    const result = await shell.exec(attacks.map((attack) => `${attack}; echo rc=$?`).join('; '), { cwd: alice.path, grant: FULL_GRANT });
    assert.equal(codes(result).length, attacks.length, result.stdout + result.stderr);
    codes(result).forEach((code, i) => assert.notEqual(code, 0, `${attacks[i]} succeeded: ${result.stderr}`));
    assert.equal(gitOut(repo, 'for-each-ref', '--format=%(refname) %(objectname)'), before, 'a ref moved');

    // Its own work goes on: another commit, which the harness moves its branch to and lands.
    const more = await shell.exec(`echo work > work.txt && git add work.txt && git ${IDENTITY} commit -q -m work && echo committed`, { cwd: alice.path, grant: FULL_GRANT });
    assert.equal(more.stdout, 'committed\n', more.stderr);
    const { diff } = await worktreeDiff(alice, 'alice');
    assert.match(diff, /\+\+\+ b\/work\.txt/);
    const { merged } = await mergeWorktree(alice, 'alice');
    assert.equal(merged, 2);
    assert.equal(gitOut(repo, 'log', '--format=%s', '-1', 'main'), "Merge alice's work (teams/crew/alice)");
    assert.equal(gitOut(repo, 'log', '--format=%s', 'main^2'), 'work\nevil\nstart');
    await syncWorktreeBranch(bob);
    assert.equal(gitOut(repo, 'rev-parse', 'teams/crew/bob'), gitOut(repo, 'rev-parse', 'v1'), "bob's branch moved");
  });
});
