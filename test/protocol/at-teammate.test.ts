import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { atTeammate } from '../../src/protocol/at-teammate.js';
import { startsTurn } from '../../src/protocol/kinds/index.js';
import { KINDS } from '../../src/protocol/messages.js';
import { SAMPLES } from './fixtures.js';
import { MAX_PLAN_REJECTIONS, planSubmissionProblem } from '../../src/protocol/kinds/plan.js';
import type { TeammateState } from '../../src/protocol/kinds/spec.js';
import type { Envelope } from '../../src/protocol/messages.js';

const base = { id: '0000000000000000000a', from: 'lead', to: 'alice', timestamp: '2026-12-02T00:00:00.000Z' } as const;

/** A teammate working in `mode` (plan mode: its plan not approved yet). */
const inMode = (mode: TeammateState['mode']): TeammateState => ({ mode, planApproved: mode !== 'plan', planRejections: 0, stopping: false });
const planning = inMode('plan');
const working = inMode('default');

describe("what a kind does at the teammate it reaches (atTeammate, in the kind's file)", () => {

  test('an approved plan hands over the lead mode, and plan becomes default', () => {
    const approved: Envelope = { ...base, type: 'plan_approval_response', request_id: 'plan-1', approve: true, permission_mode: 'accept-edits' };
    const reaction = atTeammate(approved, planning);
    assert.equal(reaction.state.planApproved, true);
    assert.equal(reaction.state.mode, 'accept-edits');
    assert.match(reaction.notice ?? '', /permission mode: accept-edits/);
    const fromPlan = atTeammate({ ...approved, permission_mode: 'plan' }, planning);
    assert.equal(fromPlan.state.mode, 'default');
  });

  test('mode_set: plan makes it read-only until a plan is approved, with a fresh count; another mode ends plan mode', () => {
    const toPlan = atTeammate({ ...base, type: 'mode_set', permission_mode: 'plan' }, { ...inMode('accept-edits'), planRejections: 2 });
    assert.deepEqual(toPlan.state, { mode: 'plan', planApproved: false, planRejections: 0, stopping: false });
    assert.match(toPlan.notice ?? '', /put you in plan mode.*submit a plan/);
    assert.equal(planSubmissionProblem(toPlan.state), undefined);
    const out = atTeammate({ ...base, type: 'mode_set', permission_mode: 'bypass' }, planning);
    assert.deepEqual(out.state, { mode: 'bypass', planApproved: true, planRejections: 0, stopping: false });
    // A plan approved later does not undo the human's choice.
    const later = atTeammate({ ...base, type: 'plan_approval_response', request_id: 'plan-1', approve: true, permission_mode: 'default' }, out.state);
    assert.equal(later.state.mode, 'bypass');
  });

  test('rejections are counted, carry the feedback, and resubmission stops at the cap', () => {
    let state = planning;
    const rejected: Envelope = { ...base, type: 'plan_approval_response', request_id: 'plan-1', approve: false, feedback: 'add tests' };
    for (let i = 1; i <= MAX_PLAN_REJECTIONS; i++) {
      assert.equal(planSubmissionProblem(state), undefined);
      const reaction = atTeammate(rejected, state);
      state = reaction.state;
      assert.equal(state.planRejections, i);
      assert.match(reaction.notice ?? '', /add tests/);
    }
    assert.match(planSubmissionProblem(state) ?? '', /rejected 3 times/);
    assert.equal(state.planApproved, false);
  });

  test('"always" reaches the waiting call only with an approval', () => {
    const granted = atTeammate({ ...base, type: 'permission_response', request_id: 'permission-1', approve: true, always: true }, working);
    assert.deepEqual(granted.permission, { requestId: 'permission-1', approve: true, feedback: undefined, always: true });
    const denied = atTeammate({ ...base, type: 'permission_response', request_id: 'permission-1', approve: false, always: true }, working);
    assert.equal(denied.permission?.always, undefined);
  });

  test('a permission response is handed to the waiting call, not to the model', () => {
    const reaction = atTeammate({ ...base, type: 'permission_response', request_id: 'permission-1', approve: false, feedback: 'no' }, working);
    assert.deepEqual(reaction.permission, { requestId: 'permission-1', approve: false, feedback: 'no' });
    assert.equal(reaction.notice, undefined);
  });

  test('an approved finish request stops the teammate; a rejected one sends it back to work', () => {
    const yes = atTeammate({ ...base, type: 'finish_response', request_id: 'finish-1', approve: true }, working);
    assert.equal(yes.state.stopping, 'finish');
    const no = atTeammate({ ...base, type: 'finish_response', request_id: 'finish-1', approve: false, feedback: 'also update the docs' }, working);
    assert.equal(no.state.stopping, false);
    assert.match(no.notice ?? '', /also update the docs/);
  });

  test('chat and shutdown requests become notices, never raw JSON', () => {
    const chat = atTeammate({ ...base, type: 'message', text: 'hello', summary: 'hello' }, working);
    assert.equal(chat.notice, 'From lead: hello');
    const shutdown = atTeammate({ ...base, type: 'shutdown_request', request_id: 'shutdown-1', reason: 'done' }, working);
    assert.match(shutdown.notice ?? '', /^\[shutdown_request shutdown-1 from lead\]/);
    assert.doesNotMatch(shutdown.notice ?? '', /"type"/);
  });

  test('interrupt and rules_set start no turn (startsTurn: false, which the lead reads too): they give the model nothing, and every other kind does', () => {
    assert.deepEqual(KINDS.filter((kind) => !startsTurn(SAMPLES[kind])), ['rules_set', 'interrupt']);
    for (const kind of KINDS) {
      const reaction = atTeammate(SAMPLES[kind], working);
      // A permission answer reaches the model through the tool call that waits for it.
      const forModel = reaction.notice !== undefined || reaction.permission !== undefined;
      assert.equal(forModel, startsTurn(SAMPLES[kind]), kind);
    }
  });
});
