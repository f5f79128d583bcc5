import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { initialHarness, step, type HarnessEvent, type HarnessState, type Step } from '../../src/teammate/harness.js';
import type { Envelope } from '../../src/protocol/messages.js';
import { NO_RULES } from '../../src/policy/rules.js';
import { leadProtocolState, teammateProtocolState } from '../../src/teammate/protocol-state.js';

const base = { id: '0000000000000000000a', from: 'lead', to: 'alice', timestamp: '2026-12-02T00:00:00.000Z' } as const;
const start = () => initialHarness({ name: 'alice', mode: 'default', planMode: false, rules: NO_RULES });

/** Run events in order; the last step's effects, and the state at the end. */
function run(state: HarnessState, ...events: HarnessEvent[]): Step {
  let result: Step = { state, effects: [] };
  for (const event of events) result = step(result.state, event);
  return result;
}

const deliver = (envelope: Envelope, busy = false): HarnessEvent => ({ type: 'delivered', envelope, busy });
const message: Envelope = { ...base, type: 'message', text: 'how is it going?', summary: 'how is it going?' };

describe('the teammate harness as one reducer', () => {
  test('plan mode starts unapproved and read-only; otherwise the given mode applies', () => {
    const protocol = ({ mode, planApproved, planRejections, stopping }: HarnessState) => ({ mode, planApproved, planRejections, stopping });
    const inPlan = initialHarness({ name: 'alice', mode: 'accept-edits', planMode: true, rules: NO_RULES });
    assert.deepEqual(protocol(inPlan), { mode: 'plan', planApproved: false, planRejections: 0, stopping: false });
    const working = initialHarness({ name: 'alice', mode: 'accept-edits', planMode: false, rules: NO_RULES });
    assert.deepEqual(protocol(working), { mode: 'accept-edits', planApproved: true, planRejections: 0, stopping: false });
  });

  test('going idle tells the lead, with the last words unless they were already reported', () => {
    const first = run(start(), { type: 'ready' }, { type: 'turn_start' }, { type: 'idle', lastText: 'done with step 1' });
    assert.deepEqual(first.effects, [{ type: 'status', status: 'idle' }, { type: 'idle_notification', summary: 'done with step 1' }]);
    const reported = run(first.state, { type: 'turn_start' }, { type: 'reported' }, { type: 'idle', lastText: 'sent my report' });
    assert.deepEqual(reported.effects.at(-1), { type: 'idle_notification', summary: undefined });
    // News for the model starts a new story: the next idle summary is worth sending again.
    const heard = run(reported.state, deliver(message));
    assert.equal(heard.state.reported, false);
    assert.deepEqual(heard.effects.map((e) => e.type), ['notice']);
  });

  test('status changes are recorded once, and only "ready" from starting', () => {
    const ready = run(start(), { type: 'ready' });
    assert.deepEqual(ready.effects, [{ type: 'status', status: 'idle' }]);
    assert.deepEqual(run(ready.state, { type: 'status', status: 'idle' }).effects, []);
    const working = run(ready.state, { type: 'turn_start' });
    assert.deepEqual(run(working.state, { type: 'ready' }).effects, []);
  });

  test('waiting for a plan decision is not idle; the matching answer ends the wait', () => {
    const asked = run(start(), { type: 'turn_start' }, { type: 'asked', kind: 'plan', requestId: 'plan-1' }, { type: 'idle', lastText: 'submitted' });
    assert.deepEqual(asked.effects, [{ type: 'status', status: 'awaiting_approval' }]);
    const other = run(asked.state, deliver({ ...base, type: 'plan_approval_response', request_id: 'plan-2', approve: false }));
    assert.deepEqual(other.state.awaiting, { kind: 'plan', requestId: 'plan-1' });
    const answered = run(asked.state, deliver({ ...base, type: 'plan_approval_response', request_id: 'plan-1', approve: true, permission_mode: 'default' }));
    assert.equal(answered.state.awaiting, undefined);
    assert.equal(answered.state.planApproved, true);
  });

  test('a mode_set switches the mode and records it; plan holds until a plan is approved', () => {
    const set = run(start(), deliver({ ...base, type: 'mode_set', permission_mode: 'accept-edits' }));
    assert.equal(set.state.mode, 'accept-edits');
    assert.deepEqual(set.effects[0], { type: 'mode', mode: 'accept-edits' });
    assert.match(set.effects.find((e) => e.type === 'notice')?.text ?? '', /permission mode is now accept-edits/);
    const plan = run(set.state, deliver({ ...base, type: 'mode_set', permission_mode: 'plan' }));
    assert.equal(plan.state.mode, 'plan');
    assert.equal(plan.state.planApproved, false);
    assert.deepEqual(plan.effects[0], { type: 'mode', mode: 'plan' });
    // The same mode again changes nothing on the roster.
    assert.ok(!run(plan.state, deliver({ ...base, type: 'mode_set', permission_mode: 'plan' })).effects.some((e) => e.type === 'mode'));
    const approved = run(plan.state, deliver({ ...base, type: 'plan_approval_response', request_id: 'plan-1', approve: true, permission_mode: 'default' }));
    assert.equal(approved.state.mode, 'default');
    assert.equal(approved.state.planApproved, true);
    assert.deepEqual(approved.effects[0], { type: 'mode', mode: 'default' });
  });

  test('an approved finish stops at once when no turn runs, with the assigned task, and only once', () => {
    const assigned = run(start(), deliver({ ...base, type: 'task_assignment', task_id: 'task-7', subject: 'notes', description: 'write notes' }));
    const finished = run(assigned.state, deliver({ ...base, type: 'finish_response', request_id: 'finish-1', approve: true }));
    assert.deepEqual(finished.effects.at(-1), { type: 'stop', how: 'completed', lastText: '', task: { id: 'task-7', subject: 'notes' } });
    assert.deepEqual(run(finished.state, { type: 'stop', how: 'stopped', lastText: 'terminated' }).effects, []);
  });

  test('mid-turn, an agreed shutdown ends the step after the tool, then stops at idle', () => {
    const agreed = run(start(), { type: 'turn_start' }, { type: 'agreed_to_shut_down' });
    assert.deepEqual(run(agreed.state, { type: 'tool_done' }).effects, [{ type: 'interrupt' }]);
    assert.deepEqual(run(agreed.state, { type: 'idle', lastText: 'bye' }).effects, [{ type: 'stop', how: 'stopped', lastText: 'bye', task: { id: 'alice', subject: 'alice' } }]);
    assert.deepEqual(run(start(), { type: 'tool_done' }).effects, [], 'not stopping: nothing to interrupt');
  });

  test('a permission answer goes to the waiting call, not the model; "always" is kept only when granted', () => {
    const answered = run(start(), deliver({ ...base, type: 'permission_response', request_id: 'permission-1', approve: true, always: true }, true));
    assert.deepEqual(answered.effects, [{ type: 'permission', requestId: 'permission-1', answer: { approve: true, feedback: undefined, always: true } }]);
    assert.equal(answered.state.alwaysAllowed.size, 0, 'a response alone adds nothing: the asking call names what it asked');
    const before = answered.state.alwaysAllowed;
    const kept = run(answered.state, { type: 'granted_always', call: 'bash {"command":"rm -rf build"}' });
    assert.deepEqual([...kept.state.alwaysAllowed], ['bash {"command":"rm -rf build"}']);
    assert.equal(before.size, 0, 'the earlier state is left as it was');
  });

  test("the user's words reach the model as the user's, not the lead's", () => {
    const heard = run(start(), deliver({ ...base, type: 'user_message', text: 'use the new parser' }));
    assert.deepEqual(heard.effects, [{ type: 'notice', text: 'From the user: use the new parser' }]);
  });

  test('an interrupt mid-turn halts it with the note; at idle the lead hears it waits for the user, and nothing for its model', () => {
    const working = run(start(), { type: 'ready' }, { type: 'turn_start' });
    const halted = run(working.state, deliver({ ...base, type: 'interrupt' }, true));
    assert.deepEqual(halted.effects, [{ type: 'halt', note: '[The user interrupted you. Wait for their next message.]' }]);
    assert.equal(halted.state.interrupted, true);
    const idle = run(halted.state, { type: 'idle', lastText: 'half-way through' });
    assert.deepEqual(idle.effects, [
      { type: 'status', status: 'idle' },
      { type: 'idle_notification', summary: undefined, reason: 'interrupted by the user; waiting for their next message' },
    ]);
    assert.equal(idle.state.interrupted, false);
    // The next idle is an ordinary one again.
    const next = run(idle.state, deliver({ ...base, type: 'user_message', text: 'go on' }), { type: 'turn_start' }, { type: 'idle', lastText: 'done' });
    assert.deepEqual(next.effects.at(-1), { type: 'idle_notification', summary: 'done' });
  });

  test('an interrupt while idle, or once stopping began, does nothing; the model never reads one as a notice', () => {
    const ready = run(start(), { type: 'ready' });
    const idle = run(ready.state, deliver({ ...base, type: 'interrupt' }, false));
    assert.deepEqual(idle.effects, []);
    assert.equal(idle.state.interrupted, false);
    const stopped = { ...ready.state, stopped: true };
    assert.deepEqual(run(stopped, deliver({ ...base, type: 'interrupt' }, true)).effects, []);
  });

  test('interrupted while waiting for a plan decision: still awaiting it, not idle', () => {
    const asked = run(start(), { type: 'turn_start' }, { type: 'asked', kind: 'plan', requestId: 'plan-1' }, deliver({ ...base, type: 'interrupt' }, true));
    assert.deepEqual(run(asked.state, { type: 'idle', lastText: '' }).effects, [{ type: 'status', status: 'awaiting_approval' }]);
  });

  test('interrupted while stopping: the stop goes on', () => {
    const agreed = run(start(), { type: 'turn_start' }, { type: 'agreed_to_shut_down' }, deliver({ ...base, type: 'interrupt' }, true));
    assert.deepEqual(run(agreed.state, { type: 'idle', lastText: 'bye' }).effects, [{ type: 'stop', how: 'stopped', lastText: 'bye', task: { id: 'alice', subject: 'alice' } }]);
  });

  test('an interrupt that found no turn to end (an idle compaction) is forgotten when the next turn starts', () => {
    const compacting = run(start(), { type: 'ready' }, deliver({ ...base, type: 'interrupt' }, true));
    const turn = run(compacting.state, { type: 'turn_start' }, { type: 'idle', lastText: 'done' });
    assert.deepEqual(turn.effects.at(-1), { type: 'idle_notification', summary: 'done' });
  });
});

describe('protocol state kept through a compaction', () => {
  test("a teammate's: its task, mode, plan and the request it waits on; the lead's: teammates and pending requests", () => {
    let state = initialHarness({ name: 'alice', mode: 'default', planMode: true, rules: NO_RULES });
    state = { ...state, task: { id: 'task-1', subject: 'notes', description: 'Write notes.md' }, awaiting: { kind: 'plan', requestId: 'plan-abc' } };
    assert.equal(
      teammateProtocolState(state),
      "Your task: task-1: notes\nTask description: Write notes.md\nYour permission mode: plan.\nYour plan is not approved yet: only read-only tools work (rejections so far: 0).\nWaiting for the lead's answer to your plan request plan-abc.",
    );
    assert.equal(leadProtocolState([], []), 'No teammate is running.\nNo request is pending.');
  });
});

describe("the project's rules, as the lead sends them (rules_set)", () => {
  const rulesSet = (allow: string[], deny: string[], network?: string[]): Envelope => ({ ...base, type: 'rules_set', allow, deny, ...(network ? { network } : {}) });

  test('a verified rules_set replaces the rules held, whole; the model is not told, so no turn starts', () => {
    const ready = run(start(), { type: 'ready' });
    const set = run(ready.state, deliver(rulesSet(['bash(npm test*)'], ['bash(curl *)'])));
    assert.deepEqual(set.state.rules, { allow: [{ tool: 'bash', pattern: 'npm test:*' }], deny: [{ tool: 'bash', pattern: 'curl:*' }], ask: [], network: [] });
    assert.deepEqual(set.effects, []);
    // Removing a rule is a set without it: nothing of the old one stays.
    const removed = run(set.state, deliver(rulesSet([], ['bash(curl *)'])));
    assert.deepEqual(removed.state.rules, { allow: [], deny: [{ tool: 'bash', pattern: 'curl:*' }], ask: [], network: [] });
  });

  test('network rules come in the same set; one that is not a bash rule refuses the set', () => {
    const set = run(start(), deliver(rulesSet(['Bash(npm ci)'], [], ['Bash(npm ci)']))).state;
    assert.deepEqual(set.rules.network, [{ tool: 'bash', pattern: 'npm ci' }]);
    const bad = run(set, deliver(rulesSet([], [], ['write_file(src/**)'])));
    assert.equal(bad.state.rules, set.rules);
    const [effect] = bad.effects;
    assert.match(effect?.type === 'problem' ? effect.reason : '', /network\.0: a network rule names bash commands/);
  });

  test('mid-turn too, and it changes nothing else: status, mode, what it waits for', () => {
    const waiting = run(start(), { type: 'ready' }, { type: 'turn_start' }, { type: 'asked', kind: 'finish', requestId: 'finish-abc' });
    const set = run(waiting.state, deliver(rulesSet(['write_file(src/**)'], []), true));
    assert.deepEqual(set.effects, []);
    assert.deepEqual({ ...set.state, rules: waiting.state.rules }, waiting.state);
    assert.deepEqual(set.state.rules.allow, [{ tool: 'write_file', pattern: 'src/**' }]);
  });

  test('a set with a rule that is not one is refused whole, as a problem: the rules held stay', () => {
    const held = run(start(), deliver(rulesSet(['bash(npm test*)'], ['bash(curl *)']))).state;
    const bad = run(held, deliver(rulesSet(['bash(npm test*)'], ['bash(curl *)', 'rm_everything(now)'])));
    assert.equal(bad.state.rules, held.rules);
    assert.equal(bad.effects.length, 1);
    const [effect] = bad.effects;
    assert.equal(effect?.type, 'problem');
    assert.match(effect?.type === 'problem' ? `${effect.what} | ${effect.reason}` : '', /^refused rules_set .*the rules held stay \| deny\.1: unknown tool 'rm_everything'/);
  });
});
