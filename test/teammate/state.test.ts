import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { initialState, MAX_PLAN_REJECTIONS, planSubmissionProblem, react } from '../../src/teammate/state.js';
import type { Envelope } from '../../src/protocol/messages.js';

const base = { id: '0000000000000000000a', from: 'lead', to: 'alice', timestamp: '2026-12-02T00:00:00.000Z' } as const;

describe('teammate protocol state', () => {
  test('plan mode starts unapproved and read-only; otherwise the given mode applies', () => {
    assert.deepEqual(initialState('accept-edits', true), { mode: 'plan', planApproved: false, planRejections: 0, stopping: false });
    assert.deepEqual(initialState('accept-edits', false), { mode: 'accept-edits', planApproved: true, planRejections: 0, stopping: false });
  });

  test('an approved plan hands over the lead mode, and plan becomes default', () => {
    const approved: Envelope = { ...base, type: 'plan_approval_response', request_id: 'plan-1', approve: true, permission_mode: 'accept-edits' };
    const reaction = react(initialState('default', true), approved);
    assert.equal(reaction.state.planApproved, true);
    assert.equal(reaction.state.mode, 'accept-edits');
    assert.match(reaction.notice ?? '', /permission mode: accept-edits/);
    const fromPlan = react(initialState('default', true), { ...approved, permission_mode: 'plan' });
    assert.equal(fromPlan.state.mode, 'default');
  });

  test('mode_set: plan makes it read-only until a plan is approved, with a fresh count; another mode ends plan mode', () => {
    const toPlan = react({ ...initialState('accept-edits', false), planRejections: 2 }, { ...base, type: 'mode_set', permission_mode: 'plan' });
    assert.deepEqual(toPlan.state, { mode: 'plan', planApproved: false, planRejections: 0, stopping: false });
    assert.match(toPlan.notice ?? '', /put you in plan mode.*submit a plan/);
    assert.equal(planSubmissionProblem(toPlan.state), undefined);
    const out = react(initialState('default', true), { ...base, type: 'mode_set', permission_mode: 'bypass' });
    assert.deepEqual(out.state, { mode: 'bypass', planApproved: true, planRejections: 0, stopping: false });
    // A plan approved later does not undo the human's choice.
    const later = react(out.state, { ...base, type: 'plan_approval_response', request_id: 'plan-1', approve: true, permission_mode: 'default' });
    assert.equal(later.state.mode, 'bypass');
  });

  test('rejections are counted, carry the feedback, and resubmission stops at the cap', () => {
    let state = initialState('default', true);
    const rejected: Envelope = { ...base, type: 'plan_approval_response', request_id: 'plan-1', approve: false, feedback: 'add tests' };
    for (let i = 1; i <= MAX_PLAN_REJECTIONS; i++) {
      assert.equal(planSubmissionProblem(state), undefined);
      const reaction = react(state, rejected);
      state = reaction.state;
      assert.equal(state.planRejections, i);
      assert.match(reaction.notice ?? '', /add tests/);
    }
    assert.match(planSubmissionProblem(state) ?? '', /rejected 3 times/);
    assert.equal(state.planApproved, false);
  });

  test('"always" reaches the waiting call only with an approval', () => {
    const granted = react(initialState('default', false), { ...base, type: 'permission_response', request_id: 'permission-1', approve: true, always: true });
    assert.deepEqual(granted.permission, { requestId: 'permission-1', approve: true, feedback: undefined, always: true });
    const denied = react(initialState('default', false), { ...base, type: 'permission_response', request_id: 'permission-1', approve: false, always: true });
    assert.equal(denied.permission?.always, undefined);
  });

  test('a permission response is handed to the waiting call, not to the model', () => {
    const reaction = react(initialState('default', false), { ...base, type: 'permission_response', request_id: 'permission-1', approve: false, feedback: 'no' });
    assert.deepEqual(reaction.permission, { requestId: 'permission-1', approve: false, feedback: 'no' });
    assert.equal(reaction.notice, undefined);
  });

  test('an approved finish request stops the teammate; a rejected one sends it back to work', () => {
    const yes = react(initialState('default', false), { ...base, type: 'finish_response', request_id: 'finish-1', approve: true });
    assert.equal(yes.state.stopping, 'finish');
    const no = react(initialState('default', false), { ...base, type: 'finish_response', request_id: 'finish-1', approve: false, feedback: 'also update the docs' });
    assert.equal(no.state.stopping, false);
    assert.match(no.notice ?? '', /also update the docs/);
  });

  test('chat and shutdown requests become notices, never raw JSON', () => {
    const chat = react(initialState('default', false), { ...base, type: 'message', text: 'hello', summary: 'hello' });
    assert.equal(chat.notice, 'From lead: hello');
    const shutdown = react(initialState('default', false), { ...base, type: 'shutdown_request', request_id: 'shutdown-1', reason: 'done' });
    assert.match(shutdown.notice ?? '', /^\[shutdown_request shutdown-1 from lead\]/);
    assert.doesNotMatch(shutdown.notice ?? '', /"type"/);
  });
});
