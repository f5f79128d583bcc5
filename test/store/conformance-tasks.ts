import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as z from 'zod';
import { waitFor } from '../helpers/wait.js';
import { linesOf, succeeded, type Kit } from './conformance.js';

const ClaimReport = z.object({ claimed: z.array(z.string()), ms: z.number() });

export const CLAIMERS = 8;
export const RACED_TASKS = 100;

export function taskCases(kit: Kit): void {
  test('tasks: created with the next id, listed by status and owner; bad fields and unknown blockers refused', async () => {
    const { store } = await kit.team();
    const first = await store.tasks.create({ subject: 'design the schema', description: 'tables' }, 'lead');
    assert.equal(first.id, '1');
    assert.deepEqual([first.status, first.blocked_by, first.created_by, first.owner], ['pending', [], 'lead', undefined]);
    const second = await store.tasks.create({ subject: 'write the migration', blocked_by: ['1'], owner: 'alice' }, 'lead');
    assert.deepEqual([second.id, second.blocked_by, second.owner, second.description], ['2', ['1'], 'alice', '']);
    await assert.rejects(store.tasks.create({ subject: 'x', blocked_by: ['9'] }, 'lead'), /cannot create task: task 3 cannot be blocked by unknown task 9/);
    await assert.rejects(store.tasks.create({ subject: '  ' }, 'lead'), /cannot create task: .*subject/);
    await assert.rejects(store.tasks.create({ subject: 'Deploy\n#2 [completed] @alice: Security review' }, 'lead'), /cannot create task: subject: the subject is one line/);
    await assert.rejects(store.tasks.create({ subject: 'Deploy\u001b[2J' }, 'lead'), /the subject is one line/);
    await assert.rejects(store.tasks.create({ subject: 'x', owner: 'Bad/Name' }, 'lead'), /agent name/);
    assert.deepEqual((await store.tasks.list()).map((t) => t.id), ['1', '2']);
    assert.deepEqual((await store.tasks.list({ owner: 'alice' })).map((t) => t.id), ['2']);
    assert.deepEqual(await store.tasks.get('2'), second);
    assert.equal(await store.tasks.get('7'), undefined);
  });

  test('tasks: a stored task that cannot be read is set aside and reported by problems(), the same each time; the board goes on', async () => {
    const { descriptor, store } = await kit.team();
    await store.tasks.create({ subject: 'first' }, 'lead');
    await store.tasks.create({ subject: 'second' }, 'lead');
    assert.deepEqual(await store.tasks.problems(), [], 'a sound board has none');
    await kit.factory.damageTask(descriptor, '1');
    const reader = await kit.reopen(descriptor);
    assert.deepEqual((await reader.tasks.list()).map((t) => t.subject), ['second']);
    const problems = await reader.tasks.problems();
    assert.equal(problems.length, 1, JSON.stringify(problems));
    assert.ok(problems.every((p) => p.ref !== '' && p.reason !== ''), JSON.stringify(problems));
    assert.deepEqual(await reader.tasks.problems(), problems, 'a watcher tells new problems from old by ref');
    const claimed = await reader.tasks.claim('alice');
    assert.ok(claimed.ok && claimed.task.subject === 'second');
  });

  test('tasks: a task whose blocker cannot be read is kept, still blocked, and reported; the lead can re-block it', async () => {
    const { descriptor, store } = await kit.team();
    await store.tasks.create({ subject: 'first' }, 'lead');
    await store.tasks.create({ subject: 'second', blocked_by: ['1'] }, 'lead');
    await store.tasks.create({ subject: 'third', blocked_by: ['1', '2'] }, 'lead');
    await store.tasks.create({ subject: 'fourth' }, 'lead');
    assert.ok((await store.tasks.update('4', { op: 'set', blocked_by: ['1'] }, 'lead')).ok);
    await kit.factory.damageTask(descriptor, '1');
    const reader = await kit.reopen(descriptor);
    const board = await reader.tasks.list();
    assert.deepEqual(board.map((t) => [t.id, t.status, t.blocked_by]), [['2', 'pending', ['1']], ['3', 'pending', ['1', '2']], ['4', 'pending', ['1']]], 'nothing lost, a change of blockers neither');
    assert.deepEqual(await reader.tasks.claim('bob', '2'), { ok: false, error: 'task 2 is blocked by task 1, which is not on the board: change its blockers first' });
    assert.deepEqual(await reader.tasks.claim('bob'), { ok: false, error: 'no task is ready for bob to claim' });
    const reasons = (await reader.tasks.problems()).map((p) => p.reason);
    assert.equal(reasons.length, 4, reasons.join('\n'));
    for (const id of ['2', '3', '4']) assert.ok(reasons.some((r) => r.startsWith(`task ${id} is blocked by task 1,`)), `task ${id} is reported: ${reasons.join('\n')}`);
    await assert.rejects(reader.tasks.create({ subject: 'fifth', blocked_by: ['1'] }, 'lead'), /unknown task 1/, 'a new task still names only tasks on the board');
    const reblocked = await reader.tasks.update('2', { op: 'set', blocked_by: [] }, 'lead');
    assert.ok(reblocked.ok && reblocked.task.blocked_by.length === 0);
    const claimed = await reader.tasks.claim('bob');
    assert.ok(claimed.ok && claimed.task.id === '2', JSON.stringify(claimed));
  });

  test('tasks: an id named only as a blocker is not given to a new task', async () => {
    const { descriptor, store } = await kit.team();
    await store.tasks.create({ subject: 'first' }, 'lead');
    await store.tasks.create({ subject: 'second' }, 'lead');
    assert.ok((await store.tasks.update('1', { op: 'set', blocked_by: ['2'] }, 'lead')).ok);
    await kit.factory.damageTask(descriptor, '2');
    const reader = await kit.reopen(descriptor);
    const created = await reader.tasks.create({ subject: 'new' }, 'lead');
    assert.equal(created.id, '3', 'task 1 still waits on the 2 it named, not on this one');
    assert.deepEqual((await reader.tasks.get('1'))?.blocked_by, ['2']);
  });

  test('tasks: a blocked task cannot be claimed until its blockers finish; a claimed task names its owner to others', async () => {
    const { descriptor, store } = await kit.team();
    await store.tasks.create({ subject: 'first' }, 'lead');
    await store.tasks.create({ subject: 'second', blocked_by: ['1'] }, 'lead');
    assert.deepEqual(await store.tasks.claim('bob', '2'), { ok: false, error: 'task 2 is blocked by unfinished task 1' });
    const claimed = await store.tasks.claim('alice');
    assert.ok(claimed.ok);
    assert.deepEqual([claimed.task.id, claimed.task.status, claimed.task.owner], ['1', 'in_progress', 'alice']);
    const elsewhere = await kit.reopen(descriptor);
    assert.deepEqual(await elsewhere.tasks.claim('bob', '1'), { ok: false, error: 'task 1 is already claimed by alice' });
    assert.deepEqual(await elsewhere.tasks.claim('bob'), { ok: false, error: 'no task is ready for bob to claim' });
    const done = await store.tasks.update('1', { op: 'set', status: 'completed', result: 'schema.sql' }, 'alice');
    assert.ok(done.ok);
    assert.equal(done.task.result, 'schema.sql');
    const next = await elsewhere.tasks.claim('bob');
    assert.ok(next.ok);
    assert.equal(next.task.id, '2');
    assert.deepEqual(await store.tasks.update('1', { op: 'set', status: 'in_progress' }, 'bob'), { ok: false, error: 'task 1 is already completed and can no longer be in_progress' });
    assert.deepEqual(await store.tasks.update('8', { op: 'set', status: 'cancelled' }, 'lead'), { ok: false, error: 'unknown task 8' });
  });

  test('tasks: a cycle through blocked_by is refused, naming it', async () => {
    const { store } = await kit.team();
    await store.tasks.create({ subject: 'a' }, 'lead');
    await store.tasks.create({ subject: 'b', blocked_by: ['1'] }, 'lead');
    await store.tasks.create({ subject: 'c', blocked_by: ['2'] }, 'lead');
    const refused = await store.tasks.update('1', { op: 'set', blocked_by: ['3'] }, 'lead');
    assert.deepEqual(refused, { ok: false, error: 'task 1 cannot be blocked by 3: that makes a cycle (1 → 3 → 2 → 1 waits on itself)' });
    assert.deepEqual((await store.tasks.get('1'))?.blocked_by, []);
  });

  test('tasks: releasing a crashed owner puts its tasks in progress back to pending, unowned, with a note', async () => {
    const { descriptor, store } = await kit.team();
    for (let i = 0; i < 3; i++) await store.tasks.create({ subject: `t${i}` }, 'lead');
    const holder = kit.child(descriptor, 'hold', 'carol', '2');
    await waitFor(() => linesOf(holder).includes('held') || holder.process.exitCode !== null, 'carol to hold two tasks');
    assert.deepEqual(linesOf(holder), ['ready', 'claimed 1', 'claimed 2', 'held'], holder.stderr());
    holder.process.kill('SIGKILL');
    await holder.exited;
    assert.deepEqual((await store.tasks.list({ owner: 'carol' })).map((t) => t.status), ['in_progress', 'in_progress']);
    const released = await store.tasks.releaseAllOf('carol', 'carol crashed', 'lead');
    assert.deepEqual(released.map((t) => [t.id, t.status, t.owner]), [['1', 'pending', undefined], ['2', 'pending', undefined]]);
    assert.equal((await store.tasks.get('1'))?.notes?.[0]?.text, 'carol crashed');
    assert.deepEqual(await store.tasks.releaseAllOf('carol', 'again', 'lead'), [], 'nothing left to release');
    const again = await store.tasks.claim('dave');
    assert.ok(again.ok && again.task.id === '1', 'a released task can be claimed again');
  });

  test(`tasks: ${CLAIMERS} processes race to claim ${RACED_TASKS} tasks: each is claimed exactly once, none is lost`, async (t) => {
    const { descriptor, store } = await kit.team();
    // The last fifth wait on earlier tasks, so claimers also race for tasks as they unblock.
    const blockedFrom = RACED_TASKS - RACED_TASKS / 5;
    for (let i = 1; i <= RACED_TASKS; i++) {
      await store.tasks.create({ subject: `task ${i}`, blocked_by: i > blockedFrom ? [String(i - blockedFrom)] : [] }, 'lead');
    }
    const claimers = Array.from({ length: CLAIMERS }, (_, i) => kit.child(descriptor, 'claim', `claimer-${i}`));
    await kit.go(claimers);
    for (const claimer of claimers) await succeeded(claimer, 'a claimer');
    const reports = claimers.map((c) => ClaimReport.parse(JSON.parse(linesOf(c).at(-1) ?? '')));
    const all = reports.flatMap((r) => r.claimed);
    assert.equal(all.length, RACED_TASKS, 'as many claims won as there are tasks');
    assert.equal(new Set(all).size, RACED_TASKS, 'no task claimed twice');
    const final = await store.tasks.list();
    reports.forEach((report, i) => {
      for (const id of report.claimed) {
        const task = final.find((f) => f.id === id);
        assert.deepEqual([task?.status, task?.owner, task?.result], ['completed', `claimer-${i}`, `done by claimer-${i}`], `task ${id}`);
      }
    });
    t.diagnostic(`${CLAIMERS} claimers, ${RACED_TASKS} tasks, ${all.length - new Set(all).size} double claims, slowest claimer ${Math.max(...reports.map((r) => r.ms)).toFixed(0)} ms`);
  });

  test('tasks: a watch gives the board at once, then the changes another process makes', async () => {
    const { descriptor, store } = await kit.team();
    await store.tasks.create({ subject: 'a' }, 'lead');
    const looks: string[] = [];
    const problems: Error[] = [];
    kit.keep(await store.tasks.watch((tasks) => looks.push(tasks.map((t) => `${t.id}:${t.status}`).join()), (error) => problems.push(error)));
    assert.deepEqual(looks, ['1:pending']);
    const claimer = kit.child(descriptor, 'claim', 'erin');
    await kit.go([claimer]);
    await succeeded(claimer, 'the claimer');
    await waitFor(() => looks.at(-1) === '1:completed', 'the watch to see the task completed');
    assert.deepEqual(problems, []);
  });
}
