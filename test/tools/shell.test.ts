import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../../src/lib/file-lock.js';
import { CappedOutput } from '../../src/tools/capped-output.js';
import { realShellIO, type ExecResult } from '../../src/tools/shell.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

const temp = tempHome('teams-shell-');
after(() => temp.cleanup());
const shell = realShellIO();
const cwd = temp.home;

/** Pids a command printed, one per line. */
const pids = (result: ExecResult) => result.stdout.trim().split('\n').map(Number);
// A killed process may linger as a zombie until its new parent reaps it; it runs no more.
const gone = (pid: number) => waitFor(() => !isProcessAlive(pid), `process ${pid} to be gone`);

describe('realShellIO', () => {
  test('runs in the working directory, with stdout, stderr and the exit code apart', async () => {
    const result = await shell.exec('pwd; echo oops >&2; exit 3', { cwd });
    assert.deepEqual(result, { stdout: `${cwd}\n`, stderr: 'oops\n', exitCode: 3, timedOut: false, aborted: false, truncated: false });
  });

  test('a timeout SIGKILLs the whole process group, grandchildren included', async () => {
    const started = Date.now();
    // The inner shell's `sleep` is a grandchild of the command's shell; both pids are printed.
    const result = await shell.exec(`sh -c 'sleep 30 & echo $!; wait' & echo $!; wait`, { cwd, timeoutMs: 1_000 });
    assert.equal(result.timedOut, true);
    assert.equal(result.exitCode, null);
    assert.ok(Date.now() - started < 5_000, 'the call returns once the group is killed');
    const descendants = pids(result);
    assert.equal(descendants.length, 2, result.stdout);
    await Promise.all(descendants.map(gone));
  });

  test('an abort kills the group and says so', async () => {
    const controller = new AbortController();
    const pidFile = join(cwd, 'sleeper.pid');
    const running = shell.exec(`sleep 30 & echo $! > ${pidFile}; wait`, { cwd, signal: controller.signal });
    // The redirect creates the file before echo fills it: an empty file is not a pid yet (0 is no answer).
    const sleeper = await waitFor(() => (existsSync(pidFile) && Number(readFileSync(pidFile, 'utf8'))) || undefined, 'the sleeper to start');
    controller.abort();
    const result = await running;
    assert.equal(result.aborted, true);
    assert.equal(result.timedOut, false);
    await gone(sleeper);
  });

  test('an already aborted signal runs nothing', async () => {
    const result = await shell.exec(`touch ${join(cwd, 'ran')}`, { cwd, signal: AbortSignal.abort() });
    assert.equal(result.aborted, true);
    const check = await shell.exec('ls', { cwd });
    assert.doesNotMatch(check.stdout, /ran/);
  });

  test('background jobs a command leaves behind are killed when it exits', async () => {
    const result = await shell.exec('sleep 30 & echo $!', { cwd });
    assert.equal(result.exitCode, 0);
    await gone(pids(result)[0] as number);
  });

  test('output beyond the cap keeps its head and tail with a marker', async () => {
    const result = await shell.exec('seq 1 20000; seq 1 3 >&2', { cwd, maxOutputBytes: 100 });
    assert.equal(result.truncated, true);
    assert.match(result.stdout, /^1\n2\n3\n/);
    assert.match(result.stdout, /\n… \[\d+ bytes cut from the middle of this output\] …\n/);
    assert.match(result.stdout, /19999\n20000\n$/);
    assert.equal(result.stderr, '1\n2\n3\n');
  });

  test('defaults come from the options: a shell with a short timeout times out', async () => {
    const quick = realShellIO({ timeoutMs: 100 });
    assert.equal((await quick.exec('sleep 30', { cwd })).timedOut, true);
  });

  test('each command group is reported when it starts and when it is gone', async () => {
    const events: string[] = [];
    const watched = realShellIO({ onSpawn: (pgid) => events.push(`spawn ${pgid}`), onExit: (pgid) => events.push(`exit ${pgid}`) });
    const result = await watched.exec('echo $$', { cwd });
    const pid = pids(result)[0];
    assert.deepEqual(events, [`spawn ${pid}`, `exit ${pid}`]);
  });

  test('a missing working directory is an error naming it', async () => {
    await assert.rejects(shell.exec('ls', { cwd: join(cwd, 'missing') }), /cannot run the command in .*missing/);
  });
});

describe('CappedOutput', () => {
  test('under the cap it is the output as it came', () => {
    const out = new CappedOutput(10);
    out.push(Buffer.from('abc'));
    out.push(Buffer.from('defghij'));
    assert.equal(out.text(), 'abcdefghij');
    assert.equal(out.truncated, false);
  });

  test('over it, the first and last halves with what was cut between', () => {
    const out = new CappedOutput(6);
    for (const chunk of ['ab', 'cdef', 'gh', 'ijklm', 'n']) out.push(Buffer.from(chunk));
    assert.equal(out.text(), 'abc\n… [8 bytes cut from the middle of this output] …\nlmn');
    assert.equal(out.truncated, true);
  });
});
