import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FULL_GRANT } from '../../src/policy/grant.js';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launcherFor } from '../../src/sandbox/launcher.js';
import { probeSandbox } from '../../src/sandbox/probe.js';
import { realShellIO, type ExecResult, type ShellIO } from '../../src/tools/shell.js';
import { teamPaths } from '../../src/team/paths.js';
import { createWorktree } from '../../src/worktree/worktree.js';
import { syncWorktreeBranch } from '../../src/worktree/head.js';

/**
 * The real bubblewrap over a teammate's linked worktree: its git directory lies outside the
 * working directory (in the lead's `.git/worktrees/<name>`), yet `git add` and `git commit`
 * work there, while what git would run or follow (the common config and hooks, the worktree's
 * commondir, gitdir and config.worktree) stays unwritable. The state root, where the worktree
 * lives, is hidden as a teammate's sandbox hides it. Outside /tmp, as in bwrap-git.test.ts.
 */
const base = mkdtempSync('/var/tmp/teams-bwrap-worktree-');
const IDENTITY = '-c user.name=teammate -c user.email=teammate@example.invalid';
const codes = (result: ExecResult): number[] => [...result.stdout.matchAll(/^rc=(\d+)$/gm)].map((m) => Number(m[1]));
const gitOut = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8' });

let count = 0;
async function teammateWorktree(): Promise<{ repo: string; worktree: string; shell: ShellIO; gitdir: string }> {
  const repo = join(base, `lead${count++}`);
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', '-b', 'main', repo]);
  writeFileSync(join(repo, 'README'), 'hello\n');
  execFileSync('git', ['-C', repo, 'add', 'README']);
  execFileSync('git', ['-C', repo, ...IDENTITY.split(' '), 'commit', '-q', '-m', 'start']);
  const paths = teamPaths(join(repo, '.teams'), 'crew');
  const record = await createWorktree(repo, paths, 'alice');
  const shell = realShellIO({
    timeoutMs: 20_000,
    launch: launcherFor({ kind: 'bwrap', network: 'on', bwrap: 'bwrap' }, () => ({ writable: true, hidden: [paths.home] })),
  });
  return { repo, worktree: record.path, shell, gitdir: join(repo, '.git', 'worktrees', 'alice') };
}

before(() => {
  const probe = probeSandbox('bwrap', 'on');
  assert.ok(probe.ok, `bubblewrap must work here: ${probe.ok ? '' : probe.reason}`);
});

after(() => rmSync(base, { recursive: true, force: true }));

describe("a sandboxed command in a teammate's linked worktree", () => {
  test('git add and git commit work, twice, on its own branch', async () => {
    const { repo, worktree, shell } = await teammateWorktree();
    const result = await shell.exec(`echo work > a.txt && git add a.txt && git ${IDENTITY} commit -q -m first && echo more >> a.txt && git ${IDENTITY} commit -q -am second && echo committed`, { cwd: worktree, grant: FULL_GRANT });
    assert.equal(result.stdout, 'committed\n', result.stderr);
    // Its commits move its detached HEAD; the harness moves its branch there.
    assert.equal(gitOut(repo, 'log', '--format=%s', 'teams/crew/alice'), 'start\n');
    await syncWorktreeBranch({ repo, path: worktree, branch: 'teams/crew/alice' });
    assert.equal(gitOut(repo, 'log', '--format=%s', 'teams/crew/alice'), 'second\nfirst\nstart\n');
    // The lead's own branch and tree are untouched.
    assert.equal(gitOut(repo, 'log', '--format=%s', 'main'), 'start\n');
    assert.equal(existsSync(join(repo, 'a.txt')), false);
  });

  test("cannot write the common config or hooks, or the worktree's commondir, gitdir or config.worktree", async () => {
    const { repo, worktree, shell, gitdir } = await teammateWorktree();
    const common = join(repo, '.git');
    const before = {
      config: readFileSync(join(common, 'config'), 'utf8'),
      hooks: readdirSync(join(common, 'hooks')).sort(),
      commondir: readFileSync(join(gitdir, 'commondir'), 'utf8'),
      gitdirFile: readFileSync(join(gitdir, 'gitdir'), 'utf8'),
      configWorktree: readFileSync(join(gitdir, 'config.worktree'), 'utf8'),
    };
    const attacks = [
      `echo x > ${common}/hooks/pre-commit`,
      `echo "[core] hooksPath = /tmp/x" >> ${common}/config`,
      'git config core.hooksPath /tmp/x',
      'git config core.fsmonitor "touch /tmp/pwned"',
      `mkdir ${common}/info/x`,
      `echo /tmp/elsewhere > ${gitdir}/commondir`,
      `echo /tmp/elsewhere > ${gitdir}/gitdir`,
      `echo "[core] hooksPath = /tmp/x" > ${gitdir}/config.worktree`,
      `rm -f ${gitdir}/commondir`,
      `mv ${gitdir} ${gitdir}-old`,
      'echo "gitdir: /var/tmp/evil" > .git',
    ];
    const result = await shell.exec(attacks.map((attack) => `${attack}; echo rc=$?`).join('; '), { cwd: worktree, grant: FULL_GRANT });
    assert.equal(codes(result).length, attacks.length, result.stdout + result.stderr);
    codes(result).forEach((code, i) => assert.notEqual(code, 0, `${attacks[i]} succeeded: ${result.stderr}`));
    assert.equal(readFileSync(join(common, 'config'), 'utf8'), before.config);
    assert.deepEqual(readdirSync(join(common, 'hooks')).sort(), before.hooks);
    assert.equal(readFileSync(join(gitdir, 'commondir'), 'utf8'), before.commondir);
    assert.equal(readFileSync(join(gitdir, 'gitdir'), 'utf8'), before.gitdirFile);
    assert.equal(readFileSync(join(gitdir, 'config.worktree'), 'utf8'), before.configWorktree);

    // The control: without the sandbox the same writes succeed.
    const plain = await realShellIO({ timeoutMs: 20_000 }).exec(`${attacks[0]}; echo rc=$?; echo x >> ${gitdir}/config.worktree; echo rc=$?`, { cwd: worktree, grant: FULL_GRANT });
    assert.deepEqual(codes(plain), [0, 0]);
  });

  test("cannot see the lead's other state, or another teammate's worktree beside it", async () => {
    const { repo, worktree, shell } = await teammateWorktree();
    const bob = await createWorktree(repo, teamPaths(join(repo, '.teams'), 'crew'), 'bob');
    writeFileSync(join(bob.path, 'secret.txt'), 'bob\n');
    const result = await shell.exec(`ls ${bob.path}; echo rc=$?; cat ${bob.path}/secret.txt; echo rc=$?`, { cwd: worktree, grant: FULL_GRANT });
    codes(result).forEach((code) => assert.notEqual(code, 0, result.stdout));
  });
});
