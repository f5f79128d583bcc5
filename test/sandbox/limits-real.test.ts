import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { launcherFor } from '../../src/sandbox/launcher.js';
import { limitCommand, limitMechanism, ownCommandCgroups } from '../../src/sandbox/command-limits.js';
import { DEFAULT_LIMITS, type SandboxLimits } from '../../src/sandbox/limits.js';
import type { SandboxSettings } from '../../src/sandbox/settings.js';
import { realShellIO } from '../../src/tools/shell.js';
import { DIST, killAll, spawnNode } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { sleepers, sleepMarker } from '../e2e/hostile.js';

/**
 * The bounds on every command, enforced by the kernel: a private /tmp that fills up, a
 * process count a fork bomb hits, a memory limit a hog hits; the cgroups made for them gone
 * afterwards; and an environment without the lead's secrets.
 */
// Outside /tmp, which the sandbox replaces with a private one of its own.
const base = mkdtempSync('/var/tmp/teams-limits-');
const work = join(base, 'work');
mkdirSync(work);
after(async () => {
  await killAll();
  rmSync(base, { recursive: true, force: true });
});

const small: SandboxLimits = { memory_mb: 64, processes: 20, tmp_mb: 2, env: ['PROJECT_SETTING'] };
const parentEnv: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: '/root',
  LC_ALL: 'C',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  GITHUB_TOKEN: 'ghp_secret',
  ANTHROPIC_API_KEY: 'sk-ant-secret',
  TMPDIR: '/somewhere/else',
  PROJECT_SETTING: 'named-in-settings',
};
const mechanism = limitMechanism();
const cgroups = mechanism.kind === 'cgroup1' || mechanism.kind === 'cgroup2';

function shellFor(settings: SandboxSettings) {
  return realShellIO({ timeoutMs: 30_000, launch: launcherFor(settings, () => ({ writable: true, hidden: [] }), parentEnv) });
}
const sandboxed = shellFor({ kind: 'bwrap', network: 'none', bwrap: 'bwrap', limits: small });
const unsandboxed = shellFor({ kind: 'off', limits: small });

describe('the bounds on every command', () => {
  test('the sandbox\'s /tmp is as small as the settings say: writing past it fails with ENOSPC', async () => {
    const result = await sandboxed.exec('head -c 3000000 /dev/zero > /tmp/fill && echo wrote-all; head -c 1000000 /dev/zero > /tmp/small && echo wrote-small', { cwd: work });
    assert.match(result.stderr, /No space left on device/);
    assert.doesNotMatch(result.stdout, /wrote-all/);
    const fits = await sandboxed.exec('head -c 1000000 /dev/zero > /tmp/small && echo wrote-small', { cwd: work });
    assert.match(fits.stdout, /wrote-small/, 'under the size, a write succeeds');
  });

  test('a fork bomb stops at the process limit, and nothing of it outlives the command', { skip: cgroups ? false : `no cgroup here (${mechanism.kind}): prlimit's process limit is per user` }, async () => {
    const marker = sleepMarker();
    for (const shell of [sandboxed, unsandboxed]) {
      const result = await shell.exec(`i=0; while [ $i -lt 60 ]; do sleep ${marker} & i=$((i+1)); echo started $i; done; wait`, { cwd: work });
      const started = Math.max(0, ...[...result.stdout.matchAll(/started (\d+)/g)].map((m) => Number(m[1])));
      assert.ok(started < small.processes, `at most ${small.processes} processes: ${started} sleeps started`);
      assert.match(result.stderr, /fork/i);
      await waitFor(() => sleepers(marker).length === 0, 'the sleeps to be gone');
    }
  });

  test('a memory hog is killed or fails to allocate past the memory limit', async () => {
    // 256 MB of string without a limit (it prints its length); killed or refused under 64 MB.
    const hog = `awk 'BEGIN{s="x"; for(i=0;i<28;i++) s=s s; print length(s)}'`;
    for (const shell of [sandboxed, unsandboxed]) {
      const result = await shell.exec(hog, { cwd: work });
      assert.notEqual(result.exitCode, 0, `${result.stdout} ${result.stderr}`);
      assert.doesNotMatch(result.stdout, /268435456/);
    }
    const roomy = realShellIO({ timeoutMs: 30_000, launch: launcherFor({ kind: 'off', limits: DEFAULT_LIMITS }, () => ({ writable: true, hidden: [] }), parentEnv) });
    assert.match((await roomy.exec(hog, { cwd: work })).stdout, /268435456/, 'under the default limit, the same command runs');
  });

  test('prlimit, where there is no cgroup: the address space is bounded per process', async () => {
    if (!existsSync('/usr/bin/prlimit')) return;
    const launch = limitCommand('/bin/sh', ['-c', `awk 'BEGIN{s="x"; for(i=0;i<28;i++) s=s s; print length(s)}'`], small, { kind: 'prlimit', program: '/usr/bin/prlimit', why: 'test' });
    assert.deepEqual(launch.args.slice(0, 3), ['--nproc=20', `--as=${64 * 1024 * 1024}`, '--']);
    const shell = realShellIO({ timeoutMs: 30_000, launch: () => ({ ...launch, env: parentEnv }) });
    const result = await shell.exec('', { cwd: work });
    assert.notEqual(result.exitCode, 0);
    assert.doesNotMatch(result.stdout, /268435456/);
  });

  test('every command cgroup is removed once its command has ended, killed or not', { skip: !cgroups }, async () => {
    await sandboxed.exec('true', { cwd: work });
    await unsandboxed.exec('sleep 30', { cwd: work, timeoutMs: 200 });
    await waitFor(() => ownCommandCgroups().length === 0, 'no command cgroup left');
  });

  test('a process\'s cgroups go with it, and the next one sweeps what a dead one left', { skip: !cgroups }, async () => {
    const fixture = join(DIST, 'test/sandbox/limits-fixture.js');
    const first = spawnNode(fixture);
    assert.equal((await first.exited).code, 0, first.stderr());
    const paths = [...first.stdout().matchAll(/^\d+:(?:memory|pids|):(\/.*)$/gm)].map((m) => m[1] ?? '');
    assert.ok(paths.some((path) => path.includes(`/${first.pid}/`) || path.includes(`teams-${first.pid}/`)), first.stdout());
    const parentOf = (pid: number) => (mechanism.kind === 'cgroup1' ? [join(mechanism.memory, String(pid)), join(mechanism.pids, String(pid))] : mechanism.kind === 'cgroup2' ? [join(mechanism.base, `teams-${pid}`)] : []);
    for (const dir of parentOf(first.pid)) assert.ok(!existsSync(dir), `${dir} removed at exit`);
    // As if `first` had been SIGKILLed with a command's cgroup still there.
    const stale = parentOf(first.pid).map((dir) => join(dir, 'c1'));
    for (const dir of stale) mkdirSync(dir, { recursive: true });
    const second = spawnNode(fixture);
    assert.equal((await second.exited).code, 0, second.stderr());
    for (const dir of parentOf(first.pid)) assert.ok(!existsSync(dir), `${dir} swept by the next process`);
  });
});

describe('the environment every command gets', () => {
  test('the lead\'s secrets are withheld, sandboxed or not; the allowlist and the variables the settings name pass', async () => {
    for (const shell of [sandboxed, unsandboxed]) {
      const env = (await shell.exec('env', { cwd: work })).stdout;
      for (const secret of ['AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN', 'ANTHROPIC_API_KEY', 'TMPDIR']) assert.doesNotMatch(env, new RegExp(`^${secret}=`, 'm'));
      assert.match(env, /^PROJECT_SETTING=named-in-settings$/m);
      assert.match(env, /^HOME=\/root$/m);
      assert.match(env, /^LC_ALL=C$/m);
    }
  });
});
