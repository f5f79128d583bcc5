import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { classify, isProtocolMessage, isRequest, isResponse, type Classification } from '../../src/protocol/classify.js';
import { KINDS, type Kind } from '../../src/protocol/messages.js';
import { SAMPLES } from './fixtures.js';

const EXPECTED: Record<Kind, Classification> = {
  message: { class: 'chat', kind: 'message' },
  broadcast: { class: 'chat', kind: 'broadcast' },
  shutdown_request: { class: 'request', kind: 'shutdown' },
  shutdown_response: { class: 'response', kind: 'shutdown' },
  finish_request: { class: 'request', kind: 'finish' },
  finish_response: { class: 'response', kind: 'finish' },
  plan_approval_request: { class: 'request', kind: 'plan' },
  plan_approval_response: { class: 'response', kind: 'plan' },
  permission_request: { class: 'request', kind: 'permission' },
  permission_response: { class: 'response', kind: 'permission' },
  task_assignment: { class: 'notification', kind: 'task_assignment' },
  idle_notification: { class: 'notification', kind: 'idle_notification' },
  task_notification: { class: 'notification', kind: 'task_notification' },
  code_review_request: { class: 'request', kind: 'review' },
  code_review_response: { class: 'response', kind: 'review' },
  mode_set: { class: 'notification', kind: 'mode_set' },
  user_message: { class: 'notification', kind: 'user_message' },
  interrupt: { class: 'notification', kind: 'interrupt' },
  hook_feedback: { class: 'notification', kind: 'hook_feedback' },
  rules_set: { class: 'notification', kind: 'rules_set' },
};

describe('classify', () => {
  for (const kind of KINDS) {
    test(kind, () => {
      assert.deepEqual(classify(kind), EXPECTED[kind]);
      const expected = EXPECTED[kind].class;
      assert.equal(isProtocolMessage(SAMPLES[kind]), expected !== 'chat');
      assert.equal(isRequest(SAMPLES[kind]), expected === 'request');
      assert.equal(isResponse(SAMPLES[kind]), expected === 'response');
    });
  }

  test('an unknown type is an error, not chat', () => {
    assert.throws(() => classify('gossip' as Kind), /unclassified message type 'gossip'/);
  });

  test('isProtocolMessage needs only the type', () => {
    assert.equal(isProtocolMessage({ type: 'message' }), false);
    assert.equal(isProtocolMessage({ type: 'idle_notification' }), true);
  });
});
