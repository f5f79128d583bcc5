import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_DEADLINES_MS, deadlineAt, expiryOutcome, formatDuration, resolveDeadlines, type ExpiryResponse } from '../../src/protocol/request-expiry.js';
import { Envelope, type RequestKind } from '../../src/protocol/messages.js';
import type { RequestRecord } from '../../src/protocol/request-records.js';

function record(kind: RequestKind, from: string, to: string, minutes: number): RequestRecord {
  const created = Date.parse('2030-01-01T10:00:00.000Z');
  return {
    request_id: `${kind}-0123456789`,
    kind,
    from,
    to,
    created_at: new Date(created).toISOString(),
    deadline_at: new Date(created + minutes * 60_000).toISOString(),
    state: 'pending',
    summary: 'something',
  };
}

/** The response as the send pipeline would stamp it must be a valid protocol message. */
function stamped(response: ExpiryResponse | undefined): Envelope {
  assert.ok(response, 'a response is delivered');
  return Envelope.parse({ ...response, id: '01234567890123456789', timestamp: '2030-01-01T10:10:00.000Z' });
}

test('default deadlines per kind, and overrides merged over them', () => {
  assert.deepEqual(DEFAULT_DEADLINES_MS, { plan: 600_000, permission: 300_000, shutdown: 60_000, finish: 600_000, review: 600_000 });
  assert.deepEqual(resolveDeadlines(), DEFAULT_DEADLINES_MS);
  assert.deepEqual(resolveDeadlines({ shutdown: 5_000 }), { ...DEFAULT_DEADLINES_MS, shutdown: 5_000 });
  assert.equal(deadlineAt('permission', '2030-01-01T10:00:00.000Z'), '2030-01-01T10:05:00.000Z');
  assert.equal(deadlineAt('permission', '2030-01-01T10:00:00.000Z', { permission: 1_000 }), '2030-01-01T10:00:01.000Z');
  assert.equal(deadlineAt('plan', '2030-01-01T12:00:00.000+02:00'), '2030-01-01T10:10:00.000Z');
});

test('an expired plan counts as rejected: the teammate is told approve:false, no decision came in time', () => {
  const outcome = expiryOutcome(record('plan', 'alice', 'lead', 10));
  assert.equal(outcome.recipient, 'alice');
  assert.equal(outcome.notice, undefined);
  const envelope = stamped(outcome.response);
  assert.equal(envelope.type, 'plan_approval_response');
  assert.ok(envelope.type === 'plan_approval_response');
  assert.equal(envelope.from, 'lead');
  assert.equal(envelope.to, 'alice');
  assert.equal(envelope.request_id, 'plan-0123456789');
  assert.equal(envelope.approve, false);
  assert.match(envelope.feedback ?? '', /^No decision came in time/);
  assert.match(envelope.feedback ?? '', /10 min/);
  assert.match(outcome.note, /rejected/);
});

test('an expired permission is denied: approve:false, and the feedback says it timed out', () => {
  const outcome = expiryOutcome(record('permission', 'bob', 'lead', 5));
  assert.equal(outcome.recipient, 'bob');
  const envelope = stamped(outcome.response);
  assert.ok(envelope.type === 'permission_response');
  assert.equal(envelope.approve, false);
  assert.equal(envelope.to, 'bob');
  assert.match(envelope.feedback ?? '', /timed out after 5 min/);
  assert.match(outcome.note, /denied/);
});

test('an expired finish request is not approved: the teammate is told to stay idle and wait', () => {
  const outcome = expiryOutcome(record('finish', 'carol', 'lead', 10));
  assert.equal(outcome.recipient, 'carol');
  const envelope = stamped(outcome.response);
  assert.ok(envelope.type === 'finish_response');
  assert.equal(envelope.approve, false);
  assert.match(envelope.feedback ?? '', /Stay idle and wait/);
});

test('an expired shutdown lapses: no response to the teammate, a plain notice to the lead', () => {
  const outcome = expiryOutcome(record('shutdown', 'lead', 'dave', 1));
  assert.equal(outcome.recipient, 'lead');
  assert.equal(outcome.response, undefined);
  assert.match(outcome.notice ?? '', /^Shutdown request 'shutdown-0123456789' to dave got no answer within 60 s and lapsed; dave keeps running/);
  assert.match(outcome.note, /lapsed, dave keeps running/);
});

test('durations read naturally', () => {
  assert.equal(formatDuration(0), '0 s');
  assert.equal(formatDuration(60_000), '60 s');
  assert.equal(formatDuration(300_000), '5 min');
  assert.equal(formatDuration(3_600_000), '1 h');
  assert.equal(formatDuration(5_400_000), '1 h 30 min');
  assert.equal(formatDuration(-5), '0 s');
});

test('an expired review request: no review came, and the requester (not the lead) is told so in a note', () => {
  const outcome = expiryOutcome(record('review', 'alice', 'bob', 10));
  assert.equal(outcome.response, undefined, 'bob did not answer, so nothing is sent in his name');
  assert.equal(outcome.recipient, 'alice');
  assert.match(outcome.notice ?? '', /^No review came: bob did not answer your review request 'review-0123456789' within 10 min\./);
  assert.match(outcome.note, /no review within 10 min/);
});
