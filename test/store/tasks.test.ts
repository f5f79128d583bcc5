import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyTaskChange, blockersProblem, claimableFor, claimProblem, Task, TaskDraft, transitionProblem, unblockedBy, type TaskBoardStatus } from '../../src/store/tasks.js';

// The board's rules, as pure functions: every process folds the journal through them.

const AT = '2030-01-01T10:00:00.000Z';
const LATER = '2030-01-01T10:05:00.000Z';

function task(id: string, extra: Partial<Task> = {}): Task {
  return { id, subject: `task ${id}`, description: '', status: 'pending', blocked_by: [], created_by: 'lead', created_at: AT, updated_at: AT, ...extra };
}

function board(...tasks: Task[]): Map<string, Task> {
  return new Map(tasks.map((t) => [t.id, t]));
}

test('transitions: pending → in_progress | cancelled; in_progress → pending | completed | failed | cancelled; finished is final', () => {
  const legal: [TaskBoardStatus, TaskBoardStatus][] = [
    ['pending', 'in_progress'], ['pending', 'cancelled'],
    ['in_progress', 'pending'], ['in_progress', 'completed'], ['in_progress', 'failed'], ['in_progress', 'cancelled'],
  ];
  const all: TaskBoardStatus[] = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'];
  for (const from of all) {
    for (const to of all) {
      const problem = transitionProblem(task('1', { status: from }), to);
      const isLegal = legal.some(([f, t]) => f === from && t === to);
      assert.equal(problem === undefined, isLegal, `${from} → ${to}: ${problem ?? 'allowed'}`);
    }
  }
  assert.equal(transitionProblem(task('1'), 'completed'), 'task 1 cannot go from pending to completed (from pending: in_progress, cancelled)');
  assert.equal(transitionProblem(task('1', { status: 'failed' }), 'pending'), 'task 1 is already failed and can no longer be pending');
  assert.equal(transitionProblem(task('1', { status: 'cancelled' }), 'cancelled'), 'task 1 is already cancelled');
});

test('claiming: blocked until every blocker is finished (completed, failed or cancelled); assigned tasks are their owner\'s', () => {
  const tasks = board(task('1'), task('2', { status: 'completed' }), task('3', { blocked_by: ['1', '2'] }), task('4', { owner: 'bob' }), task('5', { status: 'in_progress', owner: 'bob' }));
  assert.equal(claimProblem(tasks.get('3') as Task, 'alice', tasks), 'task 3 is blocked by unfinished task 1');
  assert.equal(claimProblem(tasks.get('4') as Task, 'alice', tasks), 'task 4 is assigned to bob');
  assert.equal(claimProblem(tasks.get('4') as Task, 'bob', tasks), undefined);
  assert.equal(claimProblem(tasks.get('5') as Task, 'alice', tasks), 'task 5 is already claimed by bob');
  assert.equal(claimProblem(tasks.get('5') as Task, 'bob', tasks), 'task 5 is already yours');
  assert.equal(claimProblem(tasks.get('2') as Task, 'bob', tasks), 'task 2 is already completed and cannot be claimed');
  for (const finished of ['completed', 'failed', 'cancelled'] as const) {
    const after = board(task('1', { status: finished }), task('3', { blocked_by: ['1'] }));
    assert.equal(claimProblem(after.get('3') as Task, 'alice', after), undefined, `a ${finished} blocker no longer blocks`);
    assert.deepEqual(unblockedBy('1', after).map((t) => t.id), ['3']);
  }
  assert.deepEqual(unblockedBy('1', tasks), [], 'task 3 still waits on nothing but 1, which is pending');
});

test('the next task for a claimer: its own assigned tasks first, then unowned ones, oldest first', () => {
  const tasks = board(task('1'), task('2', { owner: 'bob' }), task('3', { owner: 'alice' }), task('10'), task('9', { blocked_by: ['1'] }));
  assert.deepEqual(claimableFor('alice', tasks).map((t) => t.id), ['3', '1', '10']);
  assert.deepEqual(claimableFor('bob', tasks).map((t) => t.id), ['2', '1', '10']);
});

test('blockers: unknown ids, the task itself and cycles are refused, each with its own error', () => {
  const tasks = board(task('1'), task('2', { blocked_by: ['1'] }), task('3', { blocked_by: ['2'] }), task('4'));
  assert.equal(blockersProblem('1', ['9'], tasks), 'task 1 cannot be blocked by unknown task 9');
  assert.equal(blockersProblem('1', ['1'], tasks), 'task 1 cannot be blocked by itself');
  assert.equal(blockersProblem('1', ['4', '2'], tasks), 'task 1 cannot be blocked by 4, 2: that makes a cycle (1 → 2 → 1 waits on itself)');
  assert.equal(blockersProblem('1', ['3'], tasks), 'task 1 cannot be blocked by 3: that makes a cycle (1 → 3 → 2 → 1 waits on itself)');
  assert.equal(blockersProblem('4', ['3', '1'], tasks), undefined, 'a diamond is no cycle');
});

test('changes: claim, release with a note, set status/result/owner/blockers, each refused when the rules say no', () => {
  const tasks = board(task('1'), task('2', { blocked_by: ['1'] }));
  const claimed = applyTaskChange(tasks.get('1') as Task, { op: 'claim' }, 'alice', LATER, tasks);
  assert.ok(claimed.ok);
  assert.deepEqual([claimed.task.status, claimed.task.owner, claimed.task.updated_at], ['in_progress', 'alice', LATER]);
  const released = applyTaskChange(claimed.task, { op: 'release', note: 'alice crashed' }, 'lead', LATER, tasks);
  assert.ok(released.ok);
  assert.deepEqual([released.task.status, released.task.owner, released.task.notes], ['pending', undefined, [{ at: LATER, by: 'lead', text: 'alice crashed' }]]);
  assert.deepEqual(applyTaskChange(tasks.get('1') as Task, { op: 'release', note: 'x' }, 'lead', LATER, tasks), { ok: false, error: 'task 1 is pending, not in progress, and cannot be released' });
  // An exited teammate's own task is kept for it: pending, still its own, so nobody else can take it, and it can claim it back.
  const kept = applyTaskChange(claimed.task, { op: 'release', keep_owner: true, note: 'alice shut down; kept for alice' }, 'lead', LATER, tasks);
  assert.ok(kept.ok);
  assert.deepEqual([kept.task.status, kept.task.owner, kept.task.notes?.at(-1)?.text], ['pending', 'alice', 'alice shut down; kept for alice']);
  const keptBoard = new Map(tasks).set('1', kept.task);
  assert.deepEqual(applyTaskChange(kept.task, { op: 'claim' }, 'bob', LATER, keptBoard), { ok: false, error: 'task 1 is assigned to alice' });
  assert.ok(applyTaskChange(kept.task, { op: 'claim' }, 'alice', LATER, keptBoard).ok);
  const done = applyTaskChange(claimed.task, { op: 'set', status: 'completed', result: 'ok' }, 'alice', LATER, tasks);
  assert.ok(done.ok);
  assert.deepEqual([done.task.status, done.task.result, done.task.owner], ['completed', 'ok', 'alice']);
  assert.deepEqual(applyTaskChange(tasks.get('2') as Task, { op: 'set', status: 'in_progress' }, 'bob', LATER, tasks), { ok: false, error: 'task 2 is blocked by unfinished task 1' });
  const assigned = applyTaskChange(tasks.get('2') as Task, { op: 'set', owner: 'bob' }, 'lead', LATER, tasks);
  assert.ok(assigned.ok && assigned.task.owner === 'bob');
  const unassigned = applyTaskChange(assigned.task, { op: 'set', owner: null }, 'lead', LATER, tasks);
  assert.ok(unassigned.ok && unassigned.task.owner === undefined);
  assert.deepEqual(applyTaskChange(claimed.task, { op: 'set', owner: 'bob' }, 'lead', LATER, tasks), { ok: false, error: 'task 1 is in_progress: only a pending task can be (re)assigned' });
  assert.deepEqual(applyTaskChange(claimed.task, { op: 'set', blocked_by: [] }, 'lead', LATER, tasks), { ok: false, error: 'task 1 is in_progress: only a pending task\'s blockers can change' });
  assert.deepEqual(applyTaskChange(tasks.get('1') as Task, { op: 'set', status: 'pending' }, 'lead', LATER, tasks), { ok: false, error: 'task 1 is already pending' });
  const cancelled = applyTaskChange(tasks.get('2') as Task, { op: 'set', status: 'cancelled', note: 'not needed' }, 'lead', LATER, tasks);
  assert.ok(cancelled.ok && cancelled.task.status === 'cancelled' && cancelled.task.notes?.[0]?.text === 'not needed');
});

test('a change made for an owner (owned_by) lands only while that agent still owns the task', () => {
  const mine = task('1', { status: 'in_progress', owner: 'bob' });
  const done = applyTaskChange(mine, { op: 'set', status: 'completed', owned_by: 'bob' }, 'bob', LATER, board(mine));
  assert.deepEqual(done.ok && [done.task.status, done.task.owner], ['completed', 'bob']);
  const theirs = task('1', { status: 'in_progress', owner: 'carol' });
  assert.deepEqual(applyTaskChange(theirs, { op: 'set', status: 'completed', owned_by: 'bob' }, 'bob', LATER, board(theirs)), { ok: false, error: 'task 1 is already claimed by carol' });
  const released = task('1');
  assert.deepEqual(applyTaskChange(released, { op: 'set', status: 'failed', owned_by: 'bob' }, 'bob', LATER, board(released)), { ok: false, error: "task 1 is nobody's now, not bob's" });
});

test('a new subject is one line (no line break, tab or other control character); a task read back with one still parses', () => {
  for (const subject of ['Deploy\n#2 [completed] @alice: x', 'a\rb', 'a\tb', 'a\u001b[2Jb', 'a\u202eb']) {
    const parsed = TaskDraft.safeParse({ subject });
    assert.ok(!parsed.success && parsed.error.issues[0]?.message.startsWith('the subject is one line'), JSON.stringify(subject));
  }
  assert.ok(TaskDraft.safeParse({ subject: 'C:\\build cache — fix it' }).success, 'backslashes and other text are fine');
  assert.ok(Task.safeParse(task('1', { subject: 'Deploy\n#2 [completed]' })).success, 'an older journal line is still read');
});
