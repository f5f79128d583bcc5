import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandEnv, passedVariables } from '../../src/sandbox/command-env.js';
import { describeMechanism, detectMechanism, limitCommand } from '../../src/sandbox/command-limits.js';
import { describeBounds } from '../../src/sandbox/describe-bounds.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { loadProjectSandbox } from '../../src/lead/project-settings.js';

const home = mkdtempSync(join(tmpdir(), 'teams-limits-settings-'));
after(() => rmSync(home, { recursive: true, force: true }));

describe('the project\'s sandbox settings', () => {
  test('no file, or no section: the defaults a laptop lives with', () => {
    assert.deepEqual(loadProjectSandbox(home), { memory_mb: 4096, processes: 512, tmp_mb: 1024, env: [] });
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ permissions: { allow: [] } }));
    assert.deepEqual(loadProjectSandbox(home), DEFAULT_LIMITS);
  });

  test('the section\'s values, the rest defaulted', () => {
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ sandbox: { memory_mb: 2048, env: ['NODE_OPTIONS'] } }));
    assert.deepEqual(loadProjectSandbox(home), { memory_mb: 2048, processes: 512, tmp_mb: 1024, env: ['NODE_OPTIONS'] });
  });

  test('a bad value is an error naming the file and the field', () => {
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ sandbox: { processes: 'many' } }));
    assert.throws(() => loadProjectSandbox(home), /settings\.json.*sandbox\.processes/);
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ sandbox: { env: ['NOT A NAME'] } }));
    assert.throws(() => loadProjectSandbox(home), /sandbox\.env\.0/);
  });
});

describe('the environment allowlist', () => {
  const env = { PATH: '/bin', HOME: '/h', LC_TIME: 'C', TERM: 'xterm', TMPDIR: '/t', GITHUB_TOKEN: 'g', AWS_SECRET_ACCESS_KEY: 'a', ANTHROPIC_API_KEY: 'k', NODE_OPTIONS: '--x' };
  test('only the allowlist and the named variables; TMPDIR is withheld (the sandbox\'s /tmp is private)', () => {
    assert.deepEqual(commandEnv(env, []), { PATH: '/bin', HOME: '/h', LC_TIME: 'C', TERM: 'xterm' });
    assert.deepEqual(commandEnv(env, ['NODE_OPTIONS', 'UNSET']), { PATH: '/bin', HOME: '/h', LC_TIME: 'C', TERM: 'xterm', NODE_OPTIONS: '--x' });
    assert.deepEqual(passedVariables(env, []), ['HOME', 'LC_TIME', 'PATH', 'TERM']);
  });

  test("the team store's descriptor is withheld even when the project's settings name it: it may hold the store's password", () => {
    const withStore = { ...env, TEAMS_STORE: 'redis://teams:secret@redis:6379' };
    assert.deepEqual(commandEnv(withStore, ['TEAMS_STORE', 'NODE_OPTIONS']), { PATH: '/bin', HOME: '/h', LC_TIME: 'C', TERM: 'xterm', NODE_OPTIONS: '--x' });
    assert.ok(!passedVariables(withStore, ['TEAMS_STORE']).includes('TEAMS_STORE'));
  });
});

describe('the limit mechanism', () => {
  test('without cgroups it falls back to prlimit, and says why', () => {
    const root = mkdtempSync(join(tmpdir(), 'teams-no-cgroups-'));
    try {
      const found = detectMechanism(root);
      assert.ok(found.kind === 'prlimit' || found.kind === 'none');
      assert.match(found.why, /cgroup v1 memory and pids hierarchies are not writable/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('prlimit wraps the command; none leaves it as it is', () => {
    const limited = limitCommand('bwrap', ['--x'], DEFAULT_LIMITS, { kind: 'prlimit', program: '/usr/bin/prlimit', why: 'w' });
    assert.deepEqual(limited, { file: '/usr/bin/prlimit', args: ['--nproc=512', `--as=${4096 * 1024 * 1024}`, '--', 'bwrap', '--x'] });
    assert.deepEqual(limitCommand('bwrap', ['--x'], DEFAULT_LIMITS, { kind: 'none', why: 'w' }), { file: 'bwrap', args: ['--x'] });
  });

  test('doctor\'s words: the mechanism, honest about prlimit as root, and what passes', () => {
    assert.match(describeMechanism({ kind: 'cgroup1', memory: '/c/memory/teams', pids: '/c/pids/teams' }, DEFAULT_LIMITS), /^cgroup v1 .*4096 MB memory, 512 processes per command/);
    const prlimit = describeMechanism({ kind: 'prlimit', program: '/usr/bin/prlimit', why: 'no cgroup v2 delegation' }, DEFAULT_LIMITS);
    assert.match(prlimit, /per process/);
    assert.match(prlimit, /no cgroup v2 delegation/);
    if (process.getuid?.() === 0) assert.match(prlimit, /NOT enforced for root/);
    assert.match(describeMechanism({ kind: 'none', why: 'nothing here' }, DEFAULT_LIMITS), /^NONE: commands are not bounded \(nothing here\)/);
    const lines = new Map(describeBounds({ ...DEFAULT_LIMITS, env: ['NODE_OPTIONS'] }, { PATH: '/bin', GITHUB_TOKEN: 'x' }, { kind: 'none', why: 'w' }));
    assert.match(lines.get('command /tmp') ?? '', /^1024 MB/);
    assert.match(lines.get('command environment') ?? '', /^PATH \(named in settings but unset: NODE_OPTIONS\)/);
  });
});
