import { test } from 'node:test';
import assert from 'node:assert/strict';
import { transition } from '../../src/protocol/request-lifecycle.js';
import { REQUEST_STATES, type RequestRecord, type RequestState } from '../../src/protocol/request-records.js';

const FINAL = ['approved', 'rejected', 'expired', 'cancelled'] as const;
const CREATED = '2030-01-01T10:00:00.000Z';
const DEADLINE = '2030-01-01T10:10:00.000Z';
const AFTER_DEADLINE = '2030-01-01T10:10:00.001Z';

function pending(): RequestRecord {
  return {
    request_id: 'plan-x',
    kind: 'plan',
    from: 'alice',
    to: 'lead',
    created_at: CREATED,
    deadline_at: DEADLINE,
    state: 'pending',
    summary: 'refactor the parser',
  };
}

function decided(state: (typeof FINAL)[number]): RequestRecord {
  const result = transition(pending(), state, 'lead', undefined, AFTER_DEADLINE);
  assert.ok(result.ok);
  return result.record;
}

test('pending moves to every final state, stamping who, when and why', () => {
  for (const to of FINAL) {
    const result = transition(pending(), to, 'human', 'because', AFTER_DEADLINE);
    assert.ok(result.ok, to);
    assert.deepEqual(result.record, { ...pending(), state: to, decided_at: AFTER_DEADLINE, decided_by: 'human', note: 'because' });
  }
});

test('a transition without a note leaves no note, and never mutates its input', () => {
  const record = pending();
  const result = transition(record, 'approved', 'lead', undefined, CREATED);
  assert.ok(result.ok);
  assert.equal('note' in result.record, false);
  assert.equal(record.state, 'pending');
});

test('nothing moves back to pending', () => {
  for (const from of REQUEST_STATES) {
    const record = from === 'pending' ? pending() : decided(from);
    assert.deepEqual(transition(record, 'pending', 'lead', undefined, AFTER_DEADLINE), {
      ok: false,
      error: "request 'plan-x' cannot be moved back to pending",
    });
  }
});

test('every transition out of a final state is refused with what it already is', () => {
  for (const from of FINAL) {
    for (const to of FINAL) {
      const result = transition(decided(from), to, 'lead', 'late', AFTER_DEADLINE);
      const error = from === to ? `request 'plan-x' was already ${from}` : `request 'plan-x' was already ${from} and can no longer be ${to}`;
      assert.deepEqual(result, { ok: false, error }, `${from} → ${to}`);
    }
  }
});

test('expiry is refused before the deadline and allowed from it on', () => {
  assert.deepEqual(transition(pending(), 'expired', 'deadline', undefined, '2030-01-01T10:09:59.999Z'), {
    ok: false,
    error: `request 'plan-x' is not due until ${DEADLINE} and cannot expire yet`,
  });
  assert.ok(transition(pending(), 'expired', 'deadline', undefined, DEADLINE).ok);
  // An offset timestamp is compared as an instant, not as text.
  assert.ok(transition(pending(), 'expired', 'deadline', undefined, '2030-01-01T12:10:00.000+02:00').ok);
});

test('decisions before or after the deadline are fine while the request is still pending', () => {
  for (const to of ['approved', 'rejected', 'cancelled'] as RequestState[]) {
    assert.ok(transition(pending(), to, 'human', undefined, CREATED).ok);
    assert.ok(transition(pending(), to, 'human', undefined, AFTER_DEADLINE).ok);
  }
});

test('a decision by nobody is refused', () => {
  assert.deepEqual(transition(pending(), 'approved', '  ', undefined, CREATED), {
    ok: false,
    error: "request 'plan-x' cannot be approved by nobody (empty decider)",
  });
});
