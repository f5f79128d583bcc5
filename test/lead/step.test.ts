import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { stepLead } from '../../src/lead/step.js';
import { startsTurn } from '../../src/protocol/kinds/index.js';
import { initialLeadState, MAX_HOOK_REFUSALS, type LeadInput, type LeadState } from '../../src/lead/state.js';
import type { LeadEffect, LeadStep } from '../../src/lead/effects.js';
import type { Envelope, EnvelopeOf } from '../../src/protocol/messages.js';
import type { RequestRecord } from '../../src/protocol/request-records.js';
import type { Task } from '../../src/store/tasks.js';

// The lead's step without a process, a file or a clock: each input in, the state and effects out.

const at = (s: number) => new Date(Date.UTC(2026, 11, 4, 0, 0, s)).toISOString();
const start = () => initialLeadState('human');

/** Step inputs in order; the last step's effects, and the state at the end. */
function run(state: LeadState, ...inputs: LeadInput[]): LeadStep {
  let result: LeadStep = { state, effects: [] };
  for (const input of inputs) result = stepLead(result.state, input);
  return result;
}

const types = (effects: LeadEffect[]) => effects.map((e) => (e.type === 'emit' ? `emit ${e.event.type}` : e.type));
const idle = (from: string, sentAt: string, summary?: string): EnvelopeOf<'idle_notification'> => ({ type: 'idle_notification', id: `i-${from}-${sentAt}`, from, to: 'lead', timestamp: sentAt, reason: 'waiting', ...(summary ? { summary } : {}) });
const fromLead = (to: string, sentAt: string, type: 'message' | 'interrupt' | 'rules_set' = 'message'): Envelope =>
  (type === 'message' ? { type, id: `m-${to}-${sentAt}`, from: 'lead', to, timestamp: sentAt, text: 'more', summary: 'more' } : type === 'interrupt' ? { type, id: `x-${sentAt}`, from: 'lead', to, timestamp: sentAt } : { type, id: `r-${sentAt}`, from: 'lead', to, timestamp: sentAt, allow: [], deny: [] }) as Envelope;
const received = (envelope: Envelope, idleHooks = false): LeadInput => ({ type: 'received', envelope, idleHooks });
const completed = (from: string, taskId: string, sentAt = at(5)): EnvelopeOf<'task_notification'> => ({ type: 'task_notification', id: `c-${from}-${taskId}-${sentAt}`, from, to: 'lead', timestamp: sentAt, task_id: taskId, status: 'completed', summary: 'done' });
const task = (id: string, fields: Partial<Task> = {}): Task => ({ id, subject: `task ${id}`, description: '', status: 'pending', blocked_by: [], created_by: 'lead', created_at: at(0), updated_at: at(0), ...fields });

describe("the lead's step: who is idle", () => {
  test('an interrupt or new rules start no turn; anything else the lead sends does, and ends the idleness', () => {
    assert.equal(startsTurn(fromLead('alice', at(1), 'interrupt')), false);
    assert.equal(startsTurn(fromLead('alice', at(1), 'rules_set')), false);
    const idled = run(start(), received(idle('alice', at(1)))).state;
    assert.equal(idled.idle.has('alice'), true);
    for (const kind of ['interrupt', 'rules_set'] as const) {
      const after = run(idled, { type: 'sent', envelope: fromLead('alice', at(2), kind) }).state;
      assert.equal(after.idle.has('alice'), true, `${kind} leaves alice idle`);
      assert.equal(after.traffic, idled.traffic, `${kind} is no traffic`);
    }
    const told = run(idled, { type: 'sent', envelope: fromLead('alice', at(2)) }).state;
    assert.equal(told.idle.has('alice'), false);
    assert.equal(told.lastSent.get('alice'), Date.parse(at(2)));
    assert.equal(told.traffic.get('alice'), 2);
  });

  test('an idle notification with no hooks is routed at once: recorded idle before it is shown, and work is offered', () => {
    const { state, effects } = run(start(), received(idle('alice', at(1), 'tests pass')));
    assert.equal(state.idle.has('alice'), true);
    assert.deepEqual(types(effects), ['offer_work', 'emit message', 'tell_model']);
    const told = effects.at(-1);
    assert.match(told?.type === 'tell_model' ? told.text : '', /alice is idle.*tests pass/);
  });

  test('one sent before the lead last gave it something says nothing of now: it stays working, offered nothing', () => {
    const { state, effects } = run(start(), { type: 'sent', envelope: fromLead('alice', at(3)) }, received(idle('alice', at(2))));
    assert.equal(state.idle.has('alice'), false);
    assert.deepEqual(types(effects), ['emit message']);
  });

  test('while stopping, nothing starts a turn of the model or offers work; the message is still shown', () => {
    const { state, effects } = run(start(), { type: 'stop' }, received(idle('alice', at(1), 'bye')));
    assert.equal(state.idle.has('alice'), true);
    assert.deepEqual(types(effects), ['emit message']);
  });
});

describe("the lead's step: hooks on a teammate's stop", () => {
  test('held for the teammate_idle hooks; routed once they pass, unless there was traffic with it meanwhile', () => {
    const held = run(start(), received(idle('alice', at(1)), true));
    assert.deepEqual(held.effects, [{ type: 'check_idle', envelope: idle('alice', at(1)), seen: 1 }]);
    assert.equal(held.state.idle.has('alice'), false, 'busy while its hooks run');
    const passed = run(held.state, { type: 'idle_checked', envelope: idle('alice', at(1)), seen: 1, verdict: { blocked: false } });
    assert.equal(passed.state.idle.has('alice'), true);
    const overtaken = run(held.state, { type: 'sent', envelope: fromLead('alice', at(0)) }, { type: 'idle_checked', envelope: idle('alice', at(1)), seen: 1, verdict: { blocked: false } });
    assert.equal(overtaken.state.idle.has('alice'), false);
    assert.deepEqual(types(overtaken.effects), ['emit message']);
  });

  test(`a refusal sends the hook's stderr and keeps it working; past ${MAX_HOOK_REFUSALS} in a row the stop goes through, reported`, () => {
    const refused = { blocked: true as const, command: 'make test', feedback: '2 fail' };
    let state = start();
    for (let i = 1; i <= MAX_HOOK_REFUSALS; i++) {
      const step = run(state, received(idle('alice', at(i)), true), { type: 'idle_checked', envelope: idle('alice', at(i)), seen: i, verdict: refused });
      assert.deepEqual(step.effects[0], { type: 'send', draft: { type: 'hook_feedback', from: 'lead', to: 'alice', event: 'teammate_idle', command: 'make test', feedback: '2 fail' }, unsent: "the hook's feedback to alice was not sent" });
      assert.deepEqual(types(step.effects), ['send', 'emit message']);
      state = step.state;
    }
    const through = run(state, received(idle('alice', at(9)), true), { type: 'idle_checked', envelope: idle('alice', at(9)), seen: MAX_HOOK_REFUSALS + 1, verdict: refused });
    assert.deepEqual(types(through.effects), ['problem', 'offer_work', 'emit message']);
    assert.equal(through.state.idle.has('alice'), true);
    assert.equal(through.state.refusals.size, 0, 'the count starts again');
  });
});

describe("the lead's step: a teammate's completion", () => {
  test('checked once at a time; refused, the teammate works on and the human is told; recorded, it is routed', () => {
    const report = completed('bob', '3');
    const checking = run(start(), received(report));
    assert.deepEqual(checking.effects, [{ type: 'check_completion', envelope: report, seen: 1 }]);
    assert.equal(checking.state.checking.has('bob:3'), true);
    const again = run(checking.state, received(completed('bob', '3', at(6))));
    assert.deepEqual(again.effects, [{ type: 'emit', event: { type: 'notice', text: 'bob reported task 3 completed again while its checks run: the repeat is dropped' } }]);
    const blocked = run(checking.state, { type: 'completion_settled', envelope: report, seen: 1, outcome: { kind: 'blocked' }, unchecked: false });
    assert.equal(blocked.state.checking.size, 0);
    assert.deepEqual(types(blocked.effects), ['emit notice']);
    const recorded = run(checking.state, { type: 'completion_settled', envelope: report, seen: 1, outcome: { kind: 'as_is' }, unchecked: false });
    assert.deepEqual(types(recorded.effects), ['emit message', 'tell_model']);
  });

  test('routed late (its idle notification came meanwhile), it does not undo that idleness', () => {
    const report = completed('bob', '3');
    const { state } = run(start(), received(report), received(idle('bob', at(6))), { type: 'completion_settled', envelope: report, seen: 1, outcome: { kind: 'as_is' }, unchecked: false });
    assert.equal(state.idle.has('bob'), true);
  });

  test(`the ${MAX_HOOK_REFUSALS}th refusal in a row says it is the last; further reports are dropped unchecked`, () => {
    const refused = { blocked: true as const, command: 'make test', feedback: 'no' };
    let state = start();
    for (let i = 1; i < MAX_HOOK_REFUSALS; i++) state = run(state, { type: 'completion_verdict', owner: 'bob', taskId: '3', verdict: refused }).state;
    const last = run(state, { type: 'completion_verdict', owner: 'bob', taskId: '3', verdict: refused });
    assert.deepEqual(types(last.effects), ['send', 'problem']);
    const sent = last.effects[0];
    assert.ok(sent?.type === 'send' && sent.draft.type === 'hook_feedback' && sent.draft.feedback.endsWith('do not report task 3 completed again. Tell the lead what stands in the way, then wait.'));
    const dropped = run(last.state, received(completed('bob', '3')));
    assert.deepEqual(types(dropped.effects), ['emit notice']);
    assert.equal(dropped.state.checking.size, 0);
    // A pass starts the count again.
    assert.equal(run(last.state, { type: 'completion_verdict', owner: 'bob', taskId: '3', verdict: { blocked: false } }).state.refusals.size, 0);
  });
});

describe("the lead's step: the board", () => {
  const sends = (effects: LeadEffect[]) => effects.flatMap((e) => (e.type === 'send' ? [`${e.draft.type} ${e.draft.to}`] : []));

  test('the first look is the board as found; then an assignment to a running teammate is sent once, and new tasks start their hooks', () => {
    const first = run(start(), { type: 'board_changed', tasks: [task('1')], problems: [], running: ['alice'] });
    assert.deepEqual(first.effects, []);
    const assigned = run(first.state, { type: 'board_changed', tasks: [task('1', { owner: 'alice' }), task('2')], problems: [], running: ['alice'] });
    assert.deepEqual(types(assigned.effects), ['task_created', 'send']);
    assert.deepEqual(sends(assigned.effects), ['task_assignment alice']);
    const again = run(assigned.state, { type: 'board_changed', tasks: [task('1', { owner: 'bob' }), task('2')], problems: [], running: ['alice'] });
    assert.deepEqual(again.effects, [], 'bob is not running');
  });

  test('an idle teammate is offered what it may claim, each task once; a stopping team is offered nothing', () => {
    const idled = run(start(), received(idle('alice', at(1)))).state;
    const offered = run(idled, { type: 'board_read', name: 'alice', tasks: [task('1'), task('2', { blocked_by: ['1'] })] });
    assert.deepEqual(sends(offered.effects), ['message alice']);
    const draft = offered.effects[0]?.type === 'send' ? offered.effects[0].draft : undefined;
    assert.ok(draft?.type === 'message' && draft.text.includes('1 "task 1"') && !draft.text.includes('2 "task 2"'), JSON.stringify(draft));
    assert.deepEqual(run(offered.state, { type: 'board_changed', tasks: [task('1')], problems: [], running: ['alice'] }).effects, []);
    const stopping = run(idled, { type: 'stop' }, { type: 'board_changed', tasks: [task('1')], problems: [], running: ['alice'] }, { type: 'board_changed', tasks: [task('1', { owner: 'alice' })], problems: [], running: ['alice'] });
    assert.deepEqual(stopping.effects, []);
  });

  test("a task the lead assigned itself (a spawn's) is not sent again; a set-aside record is reported once", () => {
    const problem = { ref: 'tasks.jsonl line 3', reason: 'not valid JSON' };
    const seen = run(start(), { type: 'assigned', name: 'alice', taskId: '1' }, { type: 'board_changed', tasks: [], problems: [problem], running: ['alice'] });
    assert.deepEqual(seen.effects, [{ type: 'problem', what: 'task board tasks.jsonl line 3', reason: 'not valid JSON', audited: true }]);
    const next = run(seen.state, { type: 'board_changed', tasks: [task('1', { owner: 'alice' })], problems: [problem], running: ['alice'] });
    assert.deepEqual(types(next.effects), ['task_created']);
  });
});

describe("the lead's step: requests between teammates", () => {
  const record = (id: string, state: RequestRecord['state'], from = 'alice', to = 'bob'): RequestRecord => ({ request_id: id, kind: 'plan', from, to, created_at: at(0), deadline_at: at(60), state, summary: 'a plan' });

  test("those there at the start are not news; later ones are announced as they open and close, the lead's own never", () => {
    const found = run(start(), { type: 'requests_changed', records: [record('p1', 'pending')], first: true });
    assert.deepEqual(found.effects, []);
    const later = run(found.state, { type: 'requests_changed', records: [record('p1', 'approved'), record('p2', 'rejected'), record('p3', 'pending', 'alice', 'lead')], first: false });
    const announced = later.effects.map((e) => (e.type === 'emit' && e.event.type === 'request' ? `${e.event.record.request_id} ${e.event.record.state}` : e.type));
    assert.deepEqual(announced, ['p1 approved', 'p2 pending', 'p2 rejected']);
  });
});

describe("the lead's step: its own calls approved always", () => {
  test('kept only when the human approves with "always"; a denial or a plain approval keeps nothing', () => {
    const asked = run(start(), { type: 'own_call_asked', requestId: 'r1', call: 'bash:rm -rf build' }, { type: 'own_call_asked', requestId: 'r2', call: 'bash:make' });
    const denied = run(asked.state, { type: 'decided', requestId: 'r1', approve: false, always: true }, { type: 'decided', requestId: 'r2', approve: true, always: false });
    assert.equal(denied.state.always.size, 0);
    assert.equal(denied.state.ownCalls.size, 0);
    const kept = run(asked.state, { type: 'decided', requestId: 'r2', approve: true, always: true });
    assert.deepEqual([...kept.state.always], ['bash:make']);
    // A teammate's request decided "always" is the teammate's to keep, not the lead's.
    assert.equal(run(start(), { type: 'decided', requestId: 'r9', approve: true, always: true }).state.always.size, 0);
  });
});
