import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { settleCompletion } from '../../src/lead/completion.js';
import { storeOf } from '../helpers/store.js';
import { tempHome } from '../helpers/temp.js';

// The lead's half of a completion, over a real board (a file store in a temporary directory).

const temp = tempHome('teams-lead-completion-');
after(temp.cleanup);
let teams = 0;

async function boardWithTaskOf(owner: string) {
  const store = storeOf(temp.home, `t${teams++}`);
  await store.roster.ensure();
  const task = await store.tasks.create({ subject: 'parser', owner }, 'lead');
  assert.equal((await store.tasks.claim(owner, task.id)).ok, true);
  return { store, task };
}

const pass = async () => ({ blocked: false });

test('only the owner of a task in progress completes it; any other report is passed on as it came, unchecked', async () => {
  const { store, task } = await boardWithTaskOf('bob');
  let checks = 0;
  const counting = async () => (checks++, { blocked: false });
  assert.deepEqual(await settleCompletion({ from: 'carol', task_id: task.id }, store.tasks, counting), { kind: 'as_is' });
  assert.deepEqual(await settleCompletion({ from: 'bob', task_id: '99' }, store.tasks, counting), { kind: 'as_is' });
  assert.deepEqual(await settleCompletion({ from: 'bob', task_id: 'bob' }, store.tasks, counting), { kind: 'as_is' }, 'a name used as a task id (a crash with no board task)');
  assert.equal(checks, 0);
  const blocked = await settleCompletion({ from: 'bob', task_id: task.id }, store.tasks, async () => ({ blocked: true }));
  assert.deepEqual([blocked.kind, (await store.tasks.get(task.id))?.status], ['blocked', 'in_progress']);
  const done = await settleCompletion({ from: 'bob', task_id: task.id, result: 'parser.ts' }, store.tasks, pass);
  assert.deepEqual(done.kind === 'recorded' && [done.task.status, done.task.owner, done.task.result], ['completed', 'bob', 'parser.ts']);
  assert.deepEqual(await settleCompletion({ from: 'bob', task_id: task.id }, store.tasks, pass), { kind: 'as_is' }, 'a second report of a completed task');
});

test('released while its hooks ran (its owner shut down meanwhile), the task is still completed for its owner; claimed by another since, it is not', async () => {
  const first = await boardWithTaskOf('bob');
  const releasing = async () => {
    await first.store.tasks.releaseAllOf('bob', 'bob shut down; back to pending', 'lead');
    return { blocked: false };
  };
  const done = await settleCompletion({ from: 'bob', task_id: first.task.id, result: 'parser.ts' }, first.store.tasks, releasing);
  assert.deepEqual(done.kind === 'recorded' && [done.task.status, done.task.owner, done.task.result], ['completed', 'bob', 'parser.ts']);

  const second = await boardWithTaskOf('bob');
  const retaken = async () => {
    await second.store.tasks.releaseAllOf('bob', 'bob shut down; back to pending', 'lead');
    assert.equal((await second.store.tasks.claim('carol', second.task.id)).ok, true);
    return { blocked: false };
  };
  assert.deepEqual(await settleCompletion({ from: 'bob', task_id: second.task.id }, second.store.tasks, retaken), { kind: 'failed', error: `task ${second.task.id} is already claimed by carol` });
  assert.equal((await second.store.tasks.get(second.task.id))?.owner, 'carol');
});
