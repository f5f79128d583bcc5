import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireFileLock, isProcessAlive, withFileLock } from '../../src/lib/file-lock.js';
import { DIST, killAll, spawnNode, type Child } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

const temp = tempHome('teams-lock-');
after(async () => {
  await killAll();
  temp.cleanup();
});
let locks = 0;
const lockPath = () => join(temp.home, `l${locks++}.lock`);
const HOLDER = join(DIST, 'test/fixtures/config-lock-holder.js');

async function holder(path: string): Promise<Child> {
  const child = spawnNode(HOLDER, ['lock', path]);
  await waitFor(() => child.stdout().includes('locked\n') || child.process.exitCode !== null, 'the holder to take the lock');
  assert.equal(child.process.exitCode, null, child.stderr());
  return child;
}

/** A pid that certainly belongs to no process: one we saw die and reaped. */
async function deadPid(): Promise<number> {
  const child = spawnNode('-e', ['process.exit(0)']);
  await child.exited;
  return child.pid;
}

test('the lock is exclusive within its section and released after, even when the section throws', () => {
  const path = lockPath();
  assert.equal(withFileLock(path, () => existsSync(path)), true);
  assert.equal(existsSync(path), false);
  assert.throws(() => withFileLock(path, () => { throw new Error('refused'); }), /refused/);
  assert.equal(existsSync(path), false);
  assert.deepEqual(readdirSync(temp.home).filter((f) => f.startsWith('l0')), [], 'no temporary files left behind');
});

test('taking a lock this process already holds fails at once instead of waiting on itself', () => {
  const path = lockPath();
  withFileLock(path, () => {
    assert.throws(() => acquireFileLock(path), { message: `lock ${path} is already held by this process (nested update?)` });
  });
});

test('a lock held by a live process times out with an error naming the holder', async () => {
  const path = lockPath();
  const child = await holder(path);
  const started = Date.now();
  assert.throws(
    () => acquireFileLock(path, { timeoutMs: 150 }),
    { message: `timed out after 150 ms waiting for lock ${path} (held by pid ${child.pid}, which is still running); if no teams process is using this team, delete the lock file` },
  );
  assert.ok(Date.now() - started < 2_000, 'bounded wait');
});

test('a lock whose holder was SIGKILLed is broken', async () => {
  const path = lockPath();
  const child = await holder(path);
  process.kill(child.pid, 'SIGKILL');
  await child.exited;
  assert.equal(isProcessAlive(child.pid), false);
  assert.equal(withFileLock(path, () => 'mine', { timeoutMs: 2_000 }), 'mine');
});

test('a holder killed but not yet reaped (a zombie) counts as dead', async () => {
  const path = lockPath();
  const child = await holder(path);
  process.kill(child.pid, 'SIGKILL');
  // Synchronously, so this process cannot reap the child before the lock is judged.
  assert.equal(withFileLock(path, () => 'mine', { timeoutMs: 3_000 }), 'mine');
  await child.exited;
});

test('a lock naming a dead pid, or holding garbage, is broken', async () => {
  const path = lockPath();
  writeFileSync(path, JSON.stringify({ pid: await deadPid(), acquired_at: new Date().toISOString() }));
  assert.equal(withFileLock(path, () => 1, { timeoutMs: 1_000 }), 1);
  writeFileSync(path, 'not json');
  assert.equal(withFileLock(path, () => 2, { timeoutMs: 1_000 }), 2);
  // A stale lock with our own pid is left by a dead process whose pid we were given.
  writeFileSync(path, JSON.stringify({ pid: process.pid, acquired_at: new Date().toISOString() }));
  assert.equal(withFileLock(path, () => 3, { timeoutMs: 1_000 }), 3);
});

test('a breaker lock left by a killed breaker is itself broken', async () => {
  const path = lockPath();
  const stale = JSON.stringify({ pid: await deadPid(), acquired_at: new Date().toISOString() });
  writeFileSync(path, stale);
  writeFileSync(`${path}.break`, stale);
  assert.equal(withFileLock(path, () => 'mine', { timeoutMs: 1_000 }), 'mine');
  assert.equal(existsSync(`${path}.break`), false);
});

test('isProcessAlive: this process yes, a reaped one no', async () => {
  assert.equal(isProcessAlive(process.pid), true);
  assert.equal(isProcessAlive(await deadPid()), false);
});
