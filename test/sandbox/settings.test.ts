import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FULL_GRANT, READ_ONLY_GRANT } from '../../src/policy/grant.js';
import { PERMISSION_MODES } from '../../src/protocol/messages.js';
import { launcherFor } from '../../src/sandbox/launcher.js';
import { seccompFilter } from '../../src/sandbox/seccomp.js';
import { bwrapProgram, describeSandbox, describeStatus, sandboxFor, SandboxSettings, type SandboxStatus } from '../../src/sandbox/settings.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';

/** Whether `run` appears in `args` as consecutive arguments. */
function hasRun(args: string[], run: string[]): boolean {
  return args.some((_, i) => run.every((arg, j) => args[i + j] === arg));
}

const unavailable: SandboxStatus = { kind: 'unavailable', reason: 'bubblewrap (/nonexistent/bwrap) is not installed' };

describe('sandboxFor', () => {
  test('with bubblewrap, every mode runs in it, with the settings found at start', () => {
    const status: SandboxStatus = { kind: 'bwrap', network: 'none', bwrap: '/usr/bin/bwrap' };
    for (const mode of PERMISSION_MODES) assert.deepEqual(sandboxFor(status, mode), { ok: true, settings: status });
  });

  test('with --no-sandbox, every mode runs unsandboxed', () => {
    for (const mode of PERMISSION_MODES) assert.deepEqual(sandboxFor({ kind: 'off' }, mode), { ok: true, settings: { kind: 'off' } });
  });

  test('without bubblewrap only bypass runs (unsandboxed); every other mode is refused with the reason and the way out', () => {
    assert.deepEqual(sandboxFor(unavailable, 'bypass'), { ok: true, settings: { kind: 'off' } });
    for (const mode of ['plan', 'default', 'accept-edits'] as const) {
      const chosen = sandboxFor(unavailable, mode);
      assert.equal(chosen.ok, false, mode);
      if (chosen.ok) continue;
      assert.match(chosen.error, /bubblewrap \(\/nonexistent\/bwrap\) is not installed/);
      assert.match(chosen.error, new RegExp(`commands in ${mode} mode need the sandbox`));
      assert.match(chosen.error, /apt-get install bubblewrap/);
      assert.match(chosen.error, /--no-sandbox/);
    }
  });
});

describe('describing the sandbox', () => {
  test('unavailable: says so, why, and that only bypass can start', () => {
    const text = describeStatus(unavailable);
    assert.match(text, /UNAVAILABLE/);
    assert.match(text, /is not installed/);
    assert.match(text, /bypass/);
  });

  test('off: approvals are advisory', () => {
    assert.match(describeStatus({ kind: 'off' }), /sandbox OFF \(--no-sandbox\): approvals are advisory/);
    assert.equal(describeStatus({ kind: 'off' }), describeSandbox({ kind: 'off' }));
  });

  test('bubblewrap: with the network on or off', () => {
    // What the filter does here (seccomp.ts): blocked on x64 and arm64, said loudly to be missing elsewhere.
    const filter = seccompFilter();
    const blocked = filter.ok ? ', Unix sockets blocked' : `; seccomp filter UNAVAILABLE (no seccomp filter for ${process.arch} (only x64 and arm64)): commands can connect to Unix sockets they can see`;
    assert.equal(describeStatus({ kind: 'bwrap', network: 'on', bwrap: 'bwrap' }), `sandboxed (bubblewrap, network only for approved commands${blocked})`);
    assert.equal(describeStatus({ kind: 'bwrap', network: 'none', bwrap: 'bwrap' }), `sandboxed (bubblewrap, no network${blocked})`);
  });

  test('TEAMS_BWRAP names the program; empty or unset means bwrap on the PATH', () => {
    assert.equal(bwrapProgram({ TEAMS_BWRAP: '/opt/bwrap' }), '/opt/bwrap');
    assert.equal(bwrapProgram({ TEAMS_BWRAP: '' }), 'bwrap');
    assert.equal(bwrapProgram({}), 'bwrap');
  });
});

describe('launcherFor', () => {
  const env: NodeJS.ProcessEnv = {
    PATH: '/usr/bin:/bin',
    HOME: '/home/someone',
    ANTHROPIC_API_KEY: 'sk-ant-secret',
    ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
    TEAMS_HOME: '/state',
    TEAMS_OFFLINE_SCRIPT: '/state/script.json',
    TEAMS_BWRAP: '/usr/bin/bwrap',
    MY_ANTHROPIC_NOTE: 'kept: only the prefix counts',
  };
  // An allowlist: a variable nobody named is withheld, whatever its name.
  const kept = { PATH: '/usr/bin:/bin', HOME: '/home/someone' };
  const viewOf = () => ({ writable: false, hidden: ['/state'] });

  test('sandboxed: bwrap with the view of the moment, and only the allowlisted environment', () => {
    const launch = launcherFor({ kind: 'bwrap', network: 'none', bwrap: '/usr/bin/bwrap' }, viewOf, env)('ls', '/work', FULL_GRANT);
    launch.release?.();
    // Run directly, or by the shell that first puts itself in the command's cgroups (command-limits.ts).
    assert.ok([launch.file, ...launch.args].includes('/usr/bin/bwrap'));
    assert.deepEqual(launch.env, kept);
    assert.ok(hasRun(launch.args, ['--size', String(1024 * 1024 * 1024), '--tmpfs', '/tmp']), 'the default /tmp size');
    assert.ok(launch.args.includes('--unshare-net'));
    assert.deepEqual(launch.args.slice(-5), ['--chdir', '/work', '/bin/sh', '-c', 'ls']);
    assert.ok(hasRun(launch.args, ['--ro-bind', '/work', '/work']), 'read-only working directory, as the view says');
    assert.ok(hasRun(launch.args, ['--tmpfs', '/state']), 'the hidden directory is covered');
  });

  test('sandboxed: the seccomp program goes with every launch, read by bwrap from fd 3', () => {
    const launch = launcherFor({ kind: 'bwrap', network: 'on', bwrap: 'bwrap' }, viewOf, env)('ls', '/work', FULL_GRANT);
    launch.release?.();
    const filter = seccompFilter();
    if (!filter.ok) return;
    assert.ok(hasRun(launch.args, ['--seccomp', '3']));
    assert.deepEqual(launch.seccomp, filter.program);
  });

  test('off: plain /bin/sh, with the same allowlisted environment', () => {
    const launch = launcherFor({ kind: 'off' }, viewOf, env)('ls', '/work', FULL_GRANT);
    launch.release?.();
    assert.deepEqual([launch.file, ...launch.args].slice(-3), ['/bin/sh', '-c', 'ls']);
    assert.deepEqual(launch.env, kept);
  });

  test('the project\'s settings name the variables that pass beyond the allowlist, and the /tmp size', () => {
    const limits = { ...DEFAULT_LIMITS, tmp_mb: 8, env: ['MY_ANTHROPIC_NOTE', 'UNSET_HERE'] };
    for (const settings of [{ kind: 'off', limits }, { kind: 'bwrap', network: 'none', bwrap: 'bwrap', limits }] as const) {
      const launch = launcherFor(settings, viewOf, { ...env, LC_ALL: 'C', GITHUB_TOKEN: 'ghp_x', TMPDIR: '/elsewhere' })('ls', '/work', FULL_GRANT);
      launch.release?.();
      assert.deepEqual(launch.env, { ...kept, LC_ALL: 'C', MY_ANTHROPIC_NOTE: 'kept: only the prefix counts' });
      if (settings.kind === 'bwrap') assert.ok(hasRun(launch.args, ['--size', String(8 * 1024 * 1024), '--tmpfs', '/tmp']));
    }
  });

  test('the limits reach a teammate with the settings, and survive bypass without bubblewrap', () => {
    const limits = { memory_mb: 1024, processes: 64, tmp_mb: 16, env: ['NODE_OPTIONS'] };
    const settings = { kind: 'bwrap', network: 'on', bwrap: 'bwrap', limits } as const;
    assert.deepEqual(SandboxSettings.parse(JSON.parse(JSON.stringify(settings))), settings);
    assert.deepEqual(sandboxFor({ ...unavailable, limits }, 'bypass'), { ok: true, settings: { kind: 'off', limits } });
  });

  test('the view is asked again for each command: an approval that makes the directory writable takes effect', () => {
    let writable = false;
    const launch = launcherFor({ kind: 'bwrap', network: 'on', bwrap: 'bwrap' }, () => ({ writable, hidden: [] }), env);
    assert.ok(hasRun(launch('ls', '/work', FULL_GRANT).args, ['--ro-bind', '/work', '/work']));
    writable = true;
    assert.ok(hasRun(launch('ls', '/work', FULL_GRANT).args, ['--bind', '/work', '/work']));
  });

  test('the grant decides write and network per command; the view and the settings are ceilings no grant lifts', () => {
    const on = launcherFor({ kind: 'bwrap', network: 'on', bwrap: 'bwrap' }, () => ({ writable: true, hidden: [] }), env);
    const unasked = on('ls', '/work', READ_ONLY_GRANT).args;
    assert.ok(hasRun(unasked, ['--ro-bind', '/work', '/work']) && unasked.includes('--unshare-net'), 'unasked: read-only and offline');
    const approved = on('ls', '/work', { write: true, network: false }).args;
    assert.ok(hasRun(approved, ['--bind', '/work', '/work']) && approved.includes('--unshare-net'), 'approved: writable, still offline');
    assert.ok(!on('ls', '/work', FULL_GRANT).args.includes('--unshare-net'), 'network only when granted');
    const planning = launcherFor({ kind: 'bwrap', network: 'none', bwrap: 'bwrap' }, () => ({ writable: false, hidden: [] }), env)('ls', '/work', FULL_GRANT).args;
    assert.ok(hasRun(planning, ['--ro-bind', '/work', '/work']) && planning.includes('--unshare-net'), 'plan mode and --no-network stay ceilings');
  });

  test('the caller\'s environment object is not changed', () => {
    const copy = { ...env };
    launcherFor({ kind: 'off' }, viewOf, env)('ls', '/work', FULL_GRANT);
    assert.deepEqual(env, copy);
  });
});
