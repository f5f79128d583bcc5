import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FULL_GRANT } from '../../src/policy/grant.js';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import { launcherFor } from '../../src/sandbox/launcher.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { probeSandbox } from '../../src/sandbox/probe.js';
import { realShellIO, type ExecResult, type ShellIO } from '../../src/tools/shell.js';
import { processesWith } from '../e2e/hostile.js';
import { waitFor } from '../helpers/wait.js';

/**
 * The real bubblewrap, run the way an agent's bash tool runs it: realShellIO with the
 * launcher. Outside /tmp on purpose, so that what is refused is refused by the read-only
 * root and the mounts, not merely hidden by the private /tmp.
 */
const base = mkdtempSync('/var/tmp/teams-bwrap-');
const work = join(base, 'work');
const state = join(base, 'state');
const inner = join(work, '.teams');
const outside = join(base, 'outside');
const SECRET = 'the-control-token-0123456789';

let writable = true;
const sandboxed: ShellIO = realShellIO({
  timeoutMs: 20_000,
  launch: launcherFor({ kind: 'bwrap', network: 'on', bwrap: 'bwrap' }, () => ({ writable, hidden: [state, inner] })),
});
/** The same commands without the sandbox: what each attack does when nothing stops it. */
const plain: ShellIO = realShellIO({ timeoutMs: 20_000 });

const run = (shell: ShellIO, command: string): Promise<ExecResult> => shell.exec(command, { cwd: work, grant: FULL_GRANT });

/** A `sleep` argument no other process on this machine has: its command line is the marker. */
const marker = (): string => `${randomInt(100_000, 999_999)}.${randomInt(100_000, 999_999)}`;
const started: string[] = [];

function killMarked(): void {
  for (const m of started) {
    for (const pid of processesWith(`sleep ${m}`)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  }
}

before(() => {
  for (const dir of [work, state, inner, outside]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(state, 'control.token'), SECRET);
  writeFileSync(join(inner, 'control.token'), SECRET);
  const probe = probeSandbox('bwrap', 'on');
  assert.ok(probe.ok, `bubblewrap must work here: ${probe.ok ? '' : probe.reason}`);
});

after(() => {
  killMarked();
  rmSync(base, { recursive: true, force: true });
});

describe('a command in the real sandbox', () => {
  test('the hidden directories are empty: neither the state apart nor the state inside the working directory can be read', async () => {
    const command = `ls -A ${state}; ls -A .teams; cat ${state}/control.token .teams/control.token; echo done`;
    const result = await run(sandboxed, command);
    assert.equal(result.stdout, 'done\n', result.stderr);
    assert.match(result.stderr, /No such file or directory/);
    // Without the sandbox the same command reads both: the check can fail.
    assert.match((await run(plain, command)).stdout, new RegExp(`${SECRET}${SECRET}`));
  });

  test('nothing can be written into a hidden directory', async () => {
    const result = await run(sandboxed, `echo forged > ${state}/config.json; echo forged > .teams/config.json; mkdir ${state}/x; echo rc=$?`);
    assert.match(result.stdout, /rc=[1-9]/);
    assert.match(result.stderr, /Read-only file system/);
    assert.equal(existsSync(join(state, 'config.json')), false);
    assert.equal(existsSync(join(inner, 'config.json')), false);
    assert.equal(existsSync(join(state, 'x')), false);
  });

  test('writing outside the working directory fails; a write to /tmp stays in the sandbox\'s private /tmp', async () => {
    const tmpName = `teams-bwrap-${marker()}`;
    const result = await run(sandboxed, `echo x > ${outside}/f; echo rc=$?; echo x > /tmp/${tmpName} && cat /tmp/${tmpName}`);
    assert.match(result.stdout, /^rc=[1-9]\nx\n$/);
    assert.match(result.stderr, /Read-only file system/);
    assert.equal(existsSync(join(outside, 'f')), false);
    assert.equal(existsSync(join('/tmp', tmpName)), false);
  });

  test('writing in the working directory works only while it is writable', async () => {
    writable = false;
    try {
      const refused = await run(sandboxed, 'echo plan > plan-mode.txt; echo rc=$?');
      assert.match(refused.stdout, /rc=[1-9]/);
      assert.match(refused.stderr, /Read-only file system/);
      assert.equal(existsSync(join(work, 'plan-mode.txt')), false);
    } finally {
      writable = true;
    }
    const allowed = await run(sandboxed, 'echo approved > approved.txt; echo rc=$?');
    assert.equal(allowed.stdout, 'rc=0\n', allowed.stderr);
    assert.equal(readFileSync(join(work, 'approved.txt'), 'utf8'), 'approved\n');
  });

  test('setsid and nohup children do not survive the command', async () => {
    const detached = marker();
    const nohup = marker();
    started.push(detached, nohup);
    // Both really run before the command returns: it waits until it sees them.
    const command =
      `setsid sleep ${detached} & nohup sleep ${nohup} >/dev/null 2>&1 & ` +
      `until ps -eo args | grep -q '^sleep ${detached}' && ps -eo args | grep -q '^sleep ${nohup}'; do sleep 0.05; done; echo running`;
    const result = await run(sandboxed, command);
    assert.equal(result.stdout, 'running\n', result.stderr);
    await waitFor(() => processesWith(`sleep ${detached}`).length === 0 && processesWith(`sleep ${nohup}`).length === 0, 'no sleep left', 3_000);

    // Without the sandbox the setsid child leaves the command's process group and survives it.
    const escaped = marker();
    started.push(escaped);
    const unsandboxed = await run(plain, `setsid sleep ${escaped} & until ps -eo args | grep -q '^sleep ${escaped}'; do sleep 0.05; done; echo running`);
    assert.equal(unsandboxed.stdout, 'running\n');
    assert.equal(processesWith(`sleep ${escaped}`).length, 1, 'the control: an unsandboxed setsid child survives');
    killMarked();
  });

  test('a command stopped midway (aborted, or past its timeout) takes its whole sandbox with it', async () => {
    const aborted = marker();
    const timedOut = marker();
    started.push(aborted, timedOut);
    const abort = new AbortController();
    const running = sandboxed.exec(`sleep ${aborted}`, { cwd: work, signal: abort.signal, grant: FULL_GRANT });
    await waitFor(() => processesWith(`sleep ${aborted}`).length > 0, 'the command to run', 5_000);
    abort.abort();
    assert.equal((await running).aborted, true);
    await waitFor(() => processesWith(`sleep ${aborted}`).length === 0, 'the aborted command and its sandbox to be gone', 5_000);
    const late = await sandboxed.exec(`sleep ${timedOut}`, { cwd: work, timeoutMs: 500 });
    assert.equal(late.timedOut, true);
    await waitFor(() => processesWith(`sleep ${timedOut}`).length === 0, 'the timed-out command and its sandbox to be gone', 5_000);
  });

  test('the command sees only the processes of its own PID namespace', async () => {
    const result = await run(sandboxed, "ls /proc | grep -E '^[0-9]+$'; ps -e -o pid= | wc -l");
    const lines = result.stdout.trim().split('\n');
    const psCount = Number(lines.pop());
    const pids = lines.map(Number);
    assert.ok(!pids.includes(process.pid), `the test's own pid ${process.pid} is visible: ${pids.join(' ')}`);
    assert.ok(pids.includes(1), 'the namespace has its own pid 1');
    assert.ok(pids.length <= 6, `only the sandbox's few processes: ${pids.join(' ')}`);
    assert.ok(psCount <= 6, `ps sees ${psCount} processes`);
    // Without the sandbox the same listing shows this process.
    assert.match((await run(plain, "ls /proc | grep -E '^[0-9]+$'")).stdout, new RegExp(`^${process.pid}$`, 'm'));
  });

  test('the tmpfs over the state cannot be unmounted, even as root, nor from a new user namespace', async () => {
    const result = await run(
      sandboxed,
      `id -u; umount ${state}; echo rc=$?; umount -l ${state}; echo rc=$?; mount -o remount,rw ${state}; echo rc=$?; ` +
        `unshare -Urm sh -c 'umount -l ${state}; cat ${state}/control.token' ; ls -A ${state}; cat ${state}/control.token; echo end`,
    );
    const [uid, ...rest] = result.stdout.trim().split('\n');
    assert.equal(uid, String(process.getuid?.() ?? ''), 'the sandbox keeps the uid');
    assert.deepEqual(rest.slice(0, 3).map((line) => /^rc=[1-9]\d*$/.test(line)), [true, true, true], result.stdout);
    assert.deepEqual(rest.slice(3), ['end']);
    assert.ok(!result.stdout.includes(SECRET));
    assert.equal(readFileSync(join(state, 'control.token'), 'utf8'), SECRET, 'the state itself is untouched');
  });

  test('ANTHROPIC_* and TEAMS_* never reach the command, nor anything the allowlist and the settings do not name', async () => {
    const limits = { ...DEFAULT_LIMITS, env: ['KEPT_FOR_THE_TEST'] };
    const shell = realShellIO({
      launch: launcherFor({ kind: 'bwrap', network: 'on', bwrap: 'bwrap', limits }, () => ({ writable, hidden: [state] }), {
        ...process.env,
        ANTHROPIC_API_KEY: 'sk-ant-leak',
        TEAMS_HOME: state,
        KEPT_FOR_THE_TEST: 'yes',
        NOT_NAMED_FOR_THE_TEST: 'withheld',
      }),
    });
    const result = await shell.exec('env', { cwd: work, grant: FULL_GRANT });
    assert.match(result.stdout, /^KEPT_FOR_THE_TEST=yes$/m);
    assert.doesNotMatch(result.stdout, /^NOT_NAMED_FOR_THE_TEST=/m);
    assert.doesNotMatch(result.stdout, /^(ANTHROPIC_|TEAMS_)/m);
  });
});
