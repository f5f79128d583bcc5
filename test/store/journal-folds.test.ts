import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RequestFold } from '../../src/store/request-fold.js';
import { TaskFold } from '../../src/store/task-fold.js';
import type { NewRequest } from '../../src/store/team-store.js';

// The folds every backend shares (request-fold.ts, task-fold.ts), without a journal: events in,
// the board and who won out.

const AT = '2026-01-02T03:04:05.000Z';
const LATER = '2026-01-02T04:04:05.000Z';

function plan(id: string): NewRequest {
  return { request_id: id, kind: 'plan', from: 'alice', to: 'lead', created_at: AT, deadline_at: AT, summary: `plan ${id}` };
}

test('requests: of two decisions made on the same view, the first folded wins and the other is told what happened', () => {
  const fold = new RequestFold('the journal');
  const opening = fold.openEvent(plan('plan-a'));
  fold.apply(opening);
  assert.equal(fold.opened(opening).state, 'pending');
  const approve = fold.transitionEvent('plan-a', 'approved', 'human', undefined, LATER);
  const expire = fold.transitionEvent('plan-a', 'expired', 'deadline', undefined, LATER);
  assert.ok(approve.ok && expire.ok, 'both legal on the view they were made on');
  fold.apply(expire.event);
  fold.apply(approve.event);
  assert.deepEqual(fold.transitioned(approve.event), { ok: false, error: "request 'plan-a' was already expired and can no longer be approved" });
  const won = fold.transitioned(expire.event);
  assert.ok(won.ok && won.record.decided_by === 'deadline');
  assert.equal(fold.apply({ ...approve.event, event_id: 'other', request_id: 'ghost' }), "transition of unknown request_id 'ghost' to approved ignored");
});

test('requests: an open of an id another writer opened first is refused with what stands', () => {
  const fold = new RequestFold('the journal');
  const mine = fold.openEvent(plan('plan-a'));
  const theirs = fold.openEvent({ ...plan('plan-a'), from: 'bob' });
  fold.apply(theirs);
  fold.apply(mine);
  assert.throws(() => fold.opened(mine), /request_id 'plan-a' is already taken \(a plan request from bob to lead\)/);
  assert.throws(() => fold.openEvent(plan('plan-a')), /already taken/);
});

test('tasks: a creation whose id was taken first loses, and the next try takes the next id', () => {
  const fold = new TaskFold('the journal');
  const draft = { subject: 'x', description: '', blocked_by: [] };
  const mine = fold.createEvent(draft, 'lead', AT);
  const theirs = fold.createEvent({ ...draft, subject: 'y' }, 'alice', AT);
  fold.apply(theirs, 'e1');
  fold.apply(mine, 'e2');
  assert.equal(fold.created(mine), undefined);
  assert.equal(fold.created(theirs)?.subject, 'y');
  assert.equal(fold.createEvent(draft, 'lead', AT).task.id, '2');
});

test('tasks: an event appended twice (a retry after a lost reply) counts once', () => {
  const fold = new TaskFold('the journal');
  const created = fold.createEvent({ subject: 'x', description: '', blocked_by: [] }, 'lead', AT);
  fold.apply(created, 'e1');
  const noted = fold.changeEvent('1', { op: 'set', note: 'looked at it' }, 'lead', LATER);
  assert.ok(noted.ok);
  fold.apply(noted.event, 'e2');
  fold.apply(noted.event, 'e3');
  assert.deepEqual(fold.get('1')?.notes?.map((n) => n.text), ['looked at it']);
  assert.ok(fold.changed(noted.event).ok, 'its writer still sees it won');
});

test('tasks: of two claims made on the same view, the first folded wins; the other is told who has it', () => {
  const fold = new TaskFold('the journal');
  fold.apply(fold.createEvent({ subject: 'x', description: '', blocked_by: [] }, 'lead', AT), 'e1');
  const alice = fold.changeEvent('1', { op: 'claim' }, 'alice', LATER);
  const bob = fold.changeEvent('1', { op: 'claim' }, 'bob', LATER);
  assert.ok(alice.ok && bob.ok);
  fold.apply(bob.event, 'e2');
  fold.apply(alice.event, 'e3');
  assert.deepEqual(fold.changed(alice.event), { ok: false, error: 'task 1 is already claimed by bob' });
  assert.deepEqual(fold.heldBy('bob'), ['1']);
  assert.deepEqual(fold.claimable('carol'), []);
});
