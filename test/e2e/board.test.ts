import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { TeamSession, taskNotifications as notifications } from './session.js';

after(killAll);

describe('the task board, end to end (offline demo, "Use the task board:")', () => {
  test('the lead splits the job into two tasks, one blocked by the other; the teammates claim them in order (whoever claims first); each completion reaches the lead by its task id', async (t) => {
    const session = await TeamSession.start({ prompt: 'Use the task board: notes about our build cache' });
    t.after(() => session.cleanup());
    const heard = (id: string) => notifications(session).find((n) => n.task_id === id && n.status === 'completed');
    const second = await waitFor(() => heard('2'), `the lead to hear task 2 completed; lead stderr: ${session.lead.stderr().slice(-500)}`, 60_000);
    const first = heard('1');
    assert.ok(first, 'task 1 was reported before task 2');
    const tasks = await session.store.tasks.list();
    const [one, two] = tasks;
    assert.deepEqual([one?.subject, one?.status, two?.subject, two?.status, two?.blocked_by], ['Write notes.md', 'completed', 'Review notes.md', 'completed', ['1']]);
    for (const [task, notified] of [[one, first], [two, second]] as const) {
      assert.ok(task?.owner === 'alice' || task?.owner === 'bob', `task ${task?.id} is owned by ${task?.owner}`);
      assert.equal(notified.from, task.owner);
      assert.equal(notified.result, `${task.owner} finished task ${task.id}.`);
      assert.equal(notified.summary, `Task ${task.id} "${task.subject}" completed (${task.owner})`);
      assert.equal(task.result, notified.result);
    }
    // Task 2 could only be claimed once task 1 was done: the board's own record says when each changed.
    assert.ok(Date.parse(two?.updated_at ?? '') >= Date.parse(one?.updated_at ?? ''), 'task 2 finished after task 1');
    // Each teammate's spawn prompt is a board task of its own, owned by it from the start.
    const spawnTasks = tasks.filter((task) => task.subject.startsWith('Claim board tasks'));
    assert.deepEqual(spawnTasks.map((task) => [task.id, task.owner, task.created_by]), [['3', 'alice', 'lead'], ['4', 'bob', 'lead']]);
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    // After the demo the board shows its work done: each teammate closed its own task once
    // nothing was left to claim, and the shutdown at the run's end sent none back to pending.
    const board = await session.store.tasks.list();
    assert.deepEqual(board.map((task) => [task.id, task.status]), [['1', 'completed'], ['2', 'completed'], ['3', 'completed'], ['4', 'completed']]);
    for (const own of board.slice(2)) assert.equal(own.result, `${own.owner ?? ''} claimed board tasks until none was left, and finished each it claimed.`);
  });
});
