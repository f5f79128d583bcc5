import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FULL_GRANT } from '../../src/policy/grant.js';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { launcherFor } from '../../src/sandbox/launcher.js';
import { probeSandbox } from '../../src/sandbox/probe.js';
import { realShellIO, type ExecResult, type ShellIO } from '../../src/tools/shell.js';

/**
 * The real bubblewrap over a writable working directory that is a git repository: what git
 * would run outside the sandbox (hooks, config, the `.git` pointer) cannot be changed, while
 * `git add` and `git commit` still work. Outside /tmp, as in bwrap-real.test.ts, so that
 * what is refused is refused by the mounts and not hidden by the private /tmp.
 */
const base = mkdtempSync('/var/tmp/teams-bwrap-git-');
const sandboxed: ShellIO = realShellIO({
  timeoutMs: 20_000,
  launch: launcherFor({ kind: 'bwrap', network: 'on', bwrap: 'bwrap' }, () => ({ writable: true, hidden: [] })),
});
const plain: ShellIO = realShellIO({ timeoutMs: 20_000 });
const run = (shell: ShellIO, cwd: string, command: string): Promise<ExecResult> => shell.exec(command, { cwd, grant: FULL_GRANT });
const IDENTITY = '-c user.name=teammate -c user.email=teammate@example.invalid';

let count = 0;
function repo(): string {
  const dir = join(base, `repo${count++}`);
  mkdirSync(dir);
  execFileSync('git', ['init', '-q', dir]);
  return dir;
}

/** Every `rc=N` line of a command's output, as numbers. */
const codes = (result: ExecResult): number[] => [...result.stdout.matchAll(/^rc=(\d+)$/gm)].map((m) => Number(m[1]));

before(() => {
  const probe = probeSandbox('bwrap', 'on');
  assert.ok(probe.ok, `bubblewrap must work here: ${probe.ok ? '' : probe.reason}`);
});

after(() => rmSync(base, { recursive: true, force: true }));

describe('a sandboxed command in a git repository', () => {
  test('cannot write a hook, change the config, or move, remove or unmount .git, its hooks or its config', async () => {
    const dir = repo();
    const config = readFileSync(join(dir, '.git/config'), 'utf8');
    const hooks = readdirSync(join(dir, '.git/hooks')).sort();
    const attacks = [
      'echo x > .git/hooks/pre-commit',
      'git config core.hooksPath /tmp/x',
      'git config core.fsmonitor "touch /tmp/pwned"',
      'echo "[alias] st = !touch /tmp/pwned" >> .git/config',
      'rm -rf .git/hooks',
      'mv .git/hooks .git/hooks-old',
      'mv .git/config .git/config-old',
      'mv .git .git-old',
      'rm -f .git/config',
      "unshare -Urm sh -c 'umount -l .git/config && echo pwned >> .git/config'",
    ];
    const result = await run(sandboxed, dir, attacks.map((attack) => `${attack}; echo rc=$?`).join('; '));
    assert.equal(codes(result).length, attacks.length, result.stdout + result.stderr);
    codes(result).forEach((code, i) => assert.notEqual(code, 0, `${attacks[i]} succeeded: ${result.stderr}`));
    assert.equal(readFileSync(join(dir, '.git/config'), 'utf8'), config);
    assert.deepEqual(readdirSync(join(dir, '.git/hooks')).sort(), hooks);
    assert.equal(existsSync(join(dir, '.git-old')), false);

    // The control: without the sandbox the first attacks succeed.
    const control = repo();
    const unguarded = await run(plain, control, `${attacks[0]}; echo rc=$?; ${attacks[1]}; echo rc=$?`);
    assert.deepEqual(codes(unguarded), [0, 0]);
    assert.match(readFileSync(join(control, '.git/config'), 'utf8'), /hooksPath = \/tmp\/x/);
  });

  test('cannot create a hooks directory that is missing: an empty read-only one stands in its place', async () => {
    const dir = repo();
    rmSync(join(dir, '.git/hooks'), { recursive: true });
    const result = await run(sandboxed, dir, 'mkdir -p .git/hooks; echo rc=$?; echo x > .git/hooks/pre-commit; echo rc=$?; rmdir .git/hooks; echo rc=$?');
    assert.equal(codes(result).length, 3, result.stdout + result.stderr);
    assert.deepEqual(codes(result).slice(1).map((code) => code !== 0), [true, true], result.stderr);
    assert.deepEqual(readdirSync(join(dir, '.git/hooks')), [], 'left behind: the empty directory git init makes anyway');
  });

  test('git add and git commit work, and an ordinary file in the working directory is writable', async () => {
    const dir = repo();
    const result = await run(sandboxed, dir, `echo hello > a.txt && git add a.txt && git ${IDENTITY} commit -q -m first && echo committed`);
    assert.equal(result.stdout, 'committed\n', result.stderr);
    assert.equal(execFileSync('git', ['-C', dir, 'log', '--format=%s'], { encoding: 'utf8' }), 'first\n');
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'hello\n');
    // A second commit, as a teammate makes many: the lock files come and go in .git itself.
    const again = await run(sandboxed, dir, `echo more >> a.txt && git ${IDENTITY} commit -q -am second && git branch -q topic && echo committed`);
    assert.equal(again.stdout, 'committed\n', again.stderr);
    assert.equal(execFileSync('git', ['-C', dir, 'log', '--format=%s'], { encoding: 'utf8' }), 'second\nfirst\n');
  });

  test('a .git pointer file cannot be repointed', async () => {
    const dir = join(base, 'worktree');
    mkdirSync(dir);
    execFileSync('git', ['init', '-q', '--separate-git-dir', join(base, 'separate.git'), dir]);
    const pointer = readFileSync(join(dir, '.git'), 'utf8');
    const result = await run(sandboxed, dir, 'echo "gitdir: /var/tmp/evil" > .git; echo rc=$?; rm -f .git; echo rc=$?; mv .git .git-old; echo rc=$?');
    assert.equal(codes(result).length, 3, result.stdout + result.stderr);
    codes(result).forEach((code) => assert.notEqual(code, 0, result.stderr));
    assert.equal(readFileSync(join(dir, '.git'), 'utf8'), pointer);
  });
});
