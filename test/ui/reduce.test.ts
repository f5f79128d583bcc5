import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Envelope } from '../../src/protocol/messages.js';
import { reduce } from '../../src/ui/state/reduce.js';
import { currentTasks, pendingBySender, sessionUsage, stillRunning } from '../../src/ui/state/selectors.js';
import { initialState } from '../../src/ui/state/initial.js';
import { costText } from '../../src/ui/lead-commands.js';
import type { State, UiAction } from '../../src/ui/state/types.js';
import { spentOn, ZERO_USAGE } from '../../src/model/index.js';
import { agent, iso, member, NOW, request, state, task } from './fixtures.js';

const run = (from: State, ...actions: UiAction[]) => actions.reduce(reduce, from);
const usage = { input_tokens: 100, output_tokens: 20, cache_read_tokens: 5, cache_write_tokens: 0 };

function envelope(fields: Partial<Envelope> & Pick<Envelope, 'type'>): Envelope {
  return { id: '01hzzzzzzz0000abcdef', from: 'alice', to: 'lead', timestamp: iso(0), ...fields } as Envelope;
}

describe('reduce: the lead loop', () => {
  test('a streamed turn stays live, then its whole text goes to the transcript once', () => {
    let s = run(state(), { type: 'lead_event', event: agent({ type: 'turn_start', call: 1 }) });
    assert.equal(s.live.busy, true);
    assert.equal(s.activity.lead, 'thinking');
    s = run(s, ...['Hel', 'lo ', 'there'].map((text): UiAction => ({ type: 'lead_event', event: agent({ type: 'text_delta', text }) })));
    assert.equal(s.live.text, 'Hello there');
    assert.equal(s.transcript.length, 0, 'nothing finished while streaming');
    const before = s.transcript;
    s = run(s, { type: 'lead_event', event: agent({ type: 'turn_end', stopReason: 'end_turn', usage, text: 'Hello there', model: 'offline-demo' }) });
    assert.notEqual(s.transcript, before);
    assert.deepEqual(s.transcript, [{ id: 1, kind: 'lead', text: 'Hello there', interrupted: false }]);
    assert.equal(s.live.text, '');
    assert.deepEqual(s.leadSpent, { usage, cost: 0 });
    // Each turn priced as the model that answered it: a /model switch does not reprice the earlier turns.
    s = run(s, { type: 'lead_event', event: agent({ type: 'turn_end', stopReason: 'end_turn', usage, text: '', model: 'claude-sonnet-5-5' }) });
    assert.deepEqual(s.leadSpent.usage, { input_tokens: 200, output_tokens: 40, cache_read_tokens: 10, cache_write_tokens: 0 });
    assert.equal(s.leadSpent.cost, (100 * 2 + 20 * 10 + 5 * 0.1) / 1e6);
  });

  test('deltas do not touch the transcript array (the <Static> items)', () => {
    const s0 = run(state(), { type: 'append', items: [{ kind: 'info', text: 'x' }] });
    const s1 = run(s0, { type: 'lead_event', event: agent({ type: 'text_delta', text: 'a' }) });
    assert.equal(s1.transcript, s0.transcript);
  });

  test('a turn that ends with no text adds nothing; the input event is not echoed', () => {
    const s = run(
      state(),
      { type: 'lead_event', event: agent({ type: 'input', text: 'From alice: hi' }) },
      { type: 'lead_event', event: agent({ type: 'turn_end', stopReason: 'tool_use', usage, text: '  ', model: 'm' }) },
    );
    assert.equal(s.transcript.length, 0);
  });

  test('a tool call waits live, then becomes one line with its short result', () => {
    let s = run(state(), { type: 'lead_event', event: agent({ type: 'tool_call', id: 't1', name: 'spawn_teammate', input: { name: 'alice', role: 'coder' } }) });
    assert.deepEqual(s.live.tools, [{ id: 't1', name: 'spawn_teammate', input: 'name=alice role=coder' }]);
    assert.equal(s.activity.lead, '⚙ spawn_teammate');
    s = run(s, { type: 'lead_event', event: agent({ type: 'tool_result', id: 't1', name: 'spawn_teammate', content: `Spawned alice\n${'x'.repeat(300)}`, isError: false }) });
    assert.deepEqual(s.live.tools, []);
    const item = s.transcript[0];
    assert.equal(item?.kind, 'tool');
    assert.ok(item?.kind === 'tool' && item.input === 'name=alice role=coder' && item.result.startsWith('Spawned alice x') && item.result.length <= 100);
  });

  test('idle after an interruption keeps what streamed and the unfinished tools', () => {
    const s = run(
      state(),
      { type: 'lead_event', event: agent({ type: 'turn_start', call: 1 }) },
      { type: 'lead_event', event: agent({ type: 'text_delta', text: 'Half a thou' }) },
      { type: 'lead_event', event: agent({ type: 'tool_call', id: 't', name: 'bash', input: { command: 'sleep 9' } }) },
      { type: 'lead_event', event: agent({ type: 'idle', reason: 'interrupted', lastText: '' }) },
    );
    assert.deepEqual(s.live, { busy: false, text: '', tools: [] });
    assert.deepEqual(s.transcript.map((i) => i.kind), ['lead', 'tool', 'info']);
    assert.ok(s.transcript[0]?.kind === 'lead' && s.transcript[0].interrupted);
    assert.equal(s.activity.lead, '');
    const stopping = run(state({ phase: 'stopping' }), { type: 'lead_event', event: agent({ type: 'idle', reason: 'interrupted', lastText: '' }) });
    assert.equal(stopping.transcript.length, 0, 'the stop interrupting the lead is not news');
  });

  test('an error is an error line', () => {
    const s = run(state(), { type: 'lead_event', event: agent({ type: 'error', message: 'model unreachable' }) });
    assert.deepEqual(s.transcript, [{ id: 1, kind: 'error', text: 'model unreachable' }]);
  });
});

describe('reduce: the team', () => {
  test('a teammate message is marked with its sender and becomes its activity', () => {
    const s = run(state(), { type: 'lead_event', event: { type: 'message', envelope: envelope({ type: 'message', text: 'Report: done', summary: 'Report' }) } });
    assert.deepEqual(s.transcript, [{ id: 1, kind: 'message', from: 'alice', type: 'message', text: 'Report: done' }]);
    assert.equal(s.activity.alice, 'Report: done');
  });

  test('task notifications and requests read as sentences', () => {
    const s = run(
      state(),
      { type: 'lead_event', event: { type: 'message', envelope: envelope({ type: 'task_notification', task_id: 't', status: 'completed', summary: 'notes written' }) } },
      { type: 'lead_event', event: { type: 'message', envelope: envelope({ type: 'plan_approval_request', request_id: 'plan-1', plan: 'do it' }) } },
    );
    assert.deepEqual(s.transcript.map((i) => (i.kind === 'message' ? i.text : '')), ['task completed: notes written', 'asks to approve a plan (plan-1): do it']);
  });

  test('a code review between teammates shows as it opens and as it is answered, though the lead takes no part', () => {
    const asked = request('review-1', 'review', 'alice', { to: 'bob', summary: 'Parser fix (files: src/parser.ts)' });
    const s = run(
      state(),
      { type: 'lead_event', event: { type: 'request', record: asked } },
      { type: 'lead_event', event: { type: 'request', record: { ...asked, state: 'rejected', decided_by: 'bob', note: 'name the flag' } } },
    );
    assert.deepEqual(s.transcript, [
      { id: 1, kind: 'message', from: 'alice', type: 'code_review_request', text: 'asks bob (review request review-1): Parser fix (files: src/parser.ts)' },
      { id: 2, kind: 'message', from: 'bob', type: 'code_review_response', text: 'rejected review request review-1 from alice: name the flag' },
    ]);
    assert.deepEqual(s.queue, [], 'nothing for the human to decide');
  });

  test('team replaces the roster; teammate_exit notes it, a crash as an error', () => {
    let s = run(state(), { type: 'lead_event', event: { type: 'team', members: [member('lead'), member('bob', 'starting')] } });
    assert.deepEqual(s.members.map((m) => m.name), ['lead', 'bob']);
    s = run(
      s,
      { type: 'lead_event', event: { type: 'teammate_exit', name: 'bob', code: 0, signal: null, why: 'code 0', crashed: false } },
      { type: 'lead_event', event: { type: 'teammate_exit', name: 'carol', code: null, signal: 'SIGKILL', why: 'killed by SIGKILL', crashed: true } },
    );
    assert.deepEqual(s.transcript.map((i) => [i.kind, 'text' in i ? i.text : '']), [
      ['info', 'bob exited (code 0)'],
      ['error', 'carol crashed (killed by SIGKILL)'],
    ]);
    assert.equal(s.activity.bob, 'exited');
  });

  test('a problem is an error line', () => {
    const s = run(state(), { type: 'lead_event', event: { type: 'problem', text: 'set aside x' } });
    assert.equal(s.transcript[0]?.kind, 'error');
  });

  test('members replaces the roster', () => {
    assert.deepEqual(run(state(), { type: 'members', members: [member('lead')] }).members.map((m) => m.name), ['lead']);
  });
});

describe('reduce: the approval queue', () => {
  const a = request('perm-a');
  const b = request('plan-b', 'plan', 'bob');
  const c = request('perm-c');

  test('approvals replace the queue; the selection follows its request', () => {
    let s = run(state(), { type: 'lead_event', event: { type: 'approvals', pending: [a, b] } }, { type: 'select', delta: 1 });
    assert.equal(s.queue[s.selected]?.request_id, 'plan-b');
    s = run(s, { type: 'lead_event', event: { type: 'approvals', pending: [b, c] } });
    assert.equal(s.selected, 0, 'plan-b moved up; the selection went with it');
    s = run(s, { type: 'select', delta: 1 }, { type: 'lead_event', event: { type: 'approvals', pending: [b] } });
    assert.equal(s.selected, 0, 'the selected request left: the index is clamped');
  });

  test('select clamps and resets the expanded view; toggle_expand flips it', () => {
    let s = run(state({ queue: [a, b] }), { type: 'toggle_expand' });
    assert.equal(s.expanded, true);
    s = run(s, { type: 'select', delta: 5 });
    assert.deepEqual([s.selected, s.expanded], [1, false]);
    s = run(s, { type: 'select', delta: -9 });
    assert.equal(s.selected, 0);
    assert.equal(run(state(), { type: 'select', delta: 1 }).selected, 0, 'an empty queue has nothing to select');
  });

  test('toggle_expand prints a request too long for the queue view in full, above; nothing selected, nothing happens', () => {
    const long = request('plan-long', 'plan', 'alice', { summary: Array.from({ length: 30 }, (_, i) => `${i + 1}. step`).join('\n') });
    let s = run(state({ queue: [long] }), { type: 'toggle_expand' });
    assert.equal(s.expanded, true);
    assert.equal(s.transcript.length, 1);
    assert.ok(s.transcript[0]?.kind === 'output' && s.transcript[0].text.startsWith('plan request plan-long from alice, in full:\n1. step\n'));
    assert.ok(s.transcript[0]?.kind === 'output' && s.transcript[0].text.endsWith('30. step'));
    s = run(s, { type: 'toggle_expand' });
    assert.deepEqual([s.expanded, s.transcript.length], [false, 1], 'closing prints nothing');
    assert.equal(run(state(), { type: 'toggle_expand' }).expanded, false);
  });

  test('preview_loaded: kept for the expanded request only; a long one printed whole above; closing drops it', () => {
    const tool = { name: 'bash', input: { command: 'ls' }, reason: 'r' };
    const p = request('perm-p', 'permission', 'alice', { tool });
    const lines = [{ kind: 'header' as const, text: 'bash' }, { kind: 'context' as const, text: '$ ls' }];
    let s = run(state({ queue: [a, p], selected: 1 }), { type: 'toggle_expand' });
    assert.equal(s.transcript.length, 0, 'a permission is not printed as its summary');
    assert.equal(run(s, { type: 'preview_loaded', requestId: 'plan-a', lines }).preview, undefined, 'not the expanded one');
    s = run(s, { type: 'preview_loaded', requestId: 'perm-p', lines });
    assert.deepEqual(s.preview, { requestId: 'perm-p', lines });
    assert.equal(s.transcript.length, 0, 'short: shown in the queue only');
    s = run(s, { type: 'toggle_expand' });
    assert.deepEqual([s.expanded, s.preview], [false, undefined]);
    assert.equal(run(s, { type: 'preview_loaded', requestId: 'perm-p', lines }).preview, undefined, 'arrived after the view closed');

    const long = Array.from({ length: 40 }, (_, i) => ({ kind: 'added' as const, text: `+${i}` }));
    s = run(state({ queue: [p] }), { type: 'toggle_expand' }, { type: 'preview_loaded', requestId: 'perm-p', lines: long });
    assert.equal(s.preview?.lines.length, 40);
    const printed = s.transcript[0];
    assert.ok(printed?.kind === 'output' && printed.text.startsWith('permission request perm-p from alice, preview in full:\n+0\n+1\n') && printed.text.endsWith('+39'));
  });

  test('focus moves between the input line and the queue; the queue emptying sends it back', () => {
    let s = run(state({ queue: [a] }), { type: 'focus', focus: 'queue' });
    assert.equal(s.focus, 'queue');
    s = run(s, { type: 'lead_event', event: { type: 'approvals', pending: [] } });
    assert.equal(s.focus, 'input');
    s = run(state({ queue: [a], expanded: true }), { type: 'focus', focus: 'queue' }, { type: 'focus', focus: 'input' });
    assert.deepEqual([s.focus, s.expanded], ['input', false]);
  });

  test('open_reason, edits into the reason, close_reason', () => {
    let s = run(state({ queue: [a] }), { type: 'focus', focus: 'queue' }, { type: 'open_reason' });
    assert.deepEqual([s.focus, s.reason?.requestId], ['reason', 'perm-a']);
    s = run(s, { type: 'edit', edit: { op: 'insert', text: 'too risky' } });
    assert.equal(s.reason?.text, 'too risky');
    assert.equal(s.input.text, '', 'the input line is untouched');
    s = run(s, { type: 'close_reason' });
    assert.deepEqual([s.focus, s.reason], ['queue', undefined]);
    assert.equal(run(state(), { type: 'open_reason' }).reason, undefined, 'nothing selected, nothing to reject');
  });

  test('the rule input (a): open with the suggestion, edit it, an invalid rule keeps the text with the error, Esc closes', () => {
    let s = run(state({ queue: [a] }), { type: 'focus', focus: 'queue' }, { type: 'open_rule', suggestion: 'bash(rm*)' });
    assert.deepEqual([s.focus, s.rule?.requestId, s.rule?.stage, s.rule?.text], ['rule', 'perm-a', 'choose', 'bash(rm*)']);
    s = run(s, { type: 'edit_rule' }, { type: 'edit', edit: { op: 'backspace' } }, { type: 'edit', edit: { op: 'backspace' } });
    assert.deepEqual([s.rule?.stage, s.rule?.text, s.input.text], ['edit', 'bash(rm', '']);
    s = run(s, { type: 'rule_invalid', error: "unbalanced parentheses in 'bash(rm'" });
    assert.deepEqual([s.rule?.text, s.rule?.error], ['bash(rm', "unbalanced parentheses in 'bash(rm'"]);
    s = run(s, { type: 'edit', edit: { op: 'insert', text: ')' } });
    assert.deepEqual([s.rule?.text, s.rule?.error], ['bash(rm)', undefined], 'typing clears the complaint');
    s = run(s, { type: 'close_rule' });
    assert.deepEqual([s.focus, s.rule], ['queue', undefined]);
    assert.equal(run(state({ queue: [request('plan-p', 'plan')] }), { type: 'open_rule', suggestion: '' }).rule, undefined, 'only a permission takes a rule');
  });

  test('the rule input closes when its request is decided, here or elsewhere', () => {
    const open = run(state({ queue: [a, b] }), { type: 'focus', focus: 'queue' }, { type: 'open_rule', suggestion: 'x' });
    assert.deepEqual([run(open, { type: 'deciding', requestId: 'perm-a' }).rule, run(open, { type: 'deciding', requestId: 'perm-a' }).focus], [undefined, 'queue']);
    const gone = run(open, { type: 'lead_event', event: { type: 'approvals', pending: [b] } });
    assert.deepEqual([gone.rule, gone.focus], [undefined, 'queue']);
    assert.ok(gone.transcript.some((i) => i.kind === 'info' && i.text.includes('perm-a was decided elsewhere; no rule was saved')));
  });

  test('deciding marks the request and closes the reason; decide_failed unmarks it with an error', () => {
    let s = run(state({ queue: [a] }), { type: 'focus', focus: 'queue' }, { type: 'open_reason' }, { type: 'deciding', requestId: 'perm-a' });
    assert.deepEqual([s.deciding, s.focus, s.reason], [['perm-a'], 'queue', undefined]);
    assert.equal(run(s, { type: 'open_reason' }).reason, undefined, 'a request being decided cannot be reopened');
    assert.equal(run(s, { type: 'deciding', requestId: 'perm-a' }).deciding.length, 1);
    s = run(s, { type: 'decide_failed', requestId: 'perm-a', message: 'already approved' });
    assert.deepEqual(s.deciding, []);
    assert.deepEqual(s.transcript.at(-1), { id: 1, kind: 'error', text: 'perm-a: already approved' });
  });

  test('a request decided elsewhere leaves at once, taking its open reason input', () => {
    let s = run(state({ queue: [a, b] }), { type: 'focus', focus: 'queue' }, { type: 'open_reason' });
    s = run(s, { type: 'lead_event', event: { type: 'approvals', pending: [b] } });
    assert.deepEqual(s.queue.map((r) => r.request_id), ['plan-b']);
    assert.deepEqual([s.focus, s.reason], ['queue', undefined]);
    assert.ok(s.transcript.some((i) => i.kind === 'info' && i.text.includes('perm-a was decided elsewhere')));
  });

  test('decided here: the approvals event drops it from deciding', () => {
    const s = run(state({ queue: [a, b], deciding: ['perm-a'] }), { type: 'lead_event', event: { type: 'approvals', pending: [b] } });
    assert.deepEqual(s.deciding, []);
    assert.equal(s.transcript.length, 0, 'no "decided elsewhere" note for our own decision');
  });
});

describe('reduce: the input line', () => {
  const type = (text: string): UiAction => ({ type: 'edit', edit: { op: 'insert', text } });

  test('edits: insert, backspace, cursor moves, kill; control characters do not get in', () => {
    let s = run(state(), type('helo'), { type: 'edit', edit: { op: 'left' } }, type('l'));
    assert.deepEqual(s.input, { text: 'hello', cursor: 4 });
    s = run(s, { type: 'edit', edit: { op: 'end' } }, { type: 'edit', edit: { op: 'backspace' } });
    assert.deepEqual(s.input, { text: 'hell', cursor: 4 });
    s = run(s, { type: 'edit', edit: { op: 'home' } }, { type: 'edit', edit: { op: 'backspace' } }, { type: 'edit', edit: { op: 'right' } });
    assert.deepEqual(s.input, { text: 'hell', cursor: 1 });
    s = run(s, { type: 'edit', edit: { op: 'kill' } }, type('a\r\nb\u0007c'));
    assert.deepEqual(s.input, { text: 'a bc', cursor: 4 });
  });

  test('line_submitted clears the line and keeps it in the history, once', () => {
    const s = run(state(), type('hello'), { type: 'line_submitted' }, type('hello'), { type: 'line_submitted' }, type('  '), { type: 'line_submitted' });
    assert.deepEqual(s.history, ['hello']);
    assert.deepEqual(s.input, { text: '', cursor: 0 });
  });

  test('history: ↑ goes back, ↓ forward and then to the line being typed', () => {
    let s = run(state(), type('one'), { type: 'line_submitted' }, type('two'), { type: 'line_submitted' }, type('dra'));
    s = run(s, { type: 'history', direction: -1 });
    assert.equal(s.input.text, 'two');
    s = run(s, { type: 'history', direction: -1 }, { type: 'history', direction: -1 });
    assert.equal(s.input.text, 'one');
    s = run(s, { type: 'history', direction: 1 });
    assert.equal(s.input.text, 'two');
    s = run(s, { type: 'history', direction: 1 });
    assert.deepEqual([s.input.text, s.historyIndex], ['dra', undefined]);
    assert.equal(run(state(), { type: 'history', direction: -1 }).input.text, '', 'no history: nothing happens');
  });

  test('complete: commands, member names, several candidates listed', () => {
    let s = run(state(), type('/sp'), { type: 'complete' });
    assert.equal(s.input.text, '/spawn ');
    s = run(state(), type('/s'), { type: 'complete' });
    assert.equal(s.input.text, '/s');
    assert.equal(s.hint, '/spawn  /send  /shutdown  /status');
    s = run(state(), type('/send al'), { type: 'complete' });
    assert.equal(s.input.text, '/send alice ');
    s = run(state(), type('/send zz'), { type: 'complete' });
    assert.equal(s.hint, 'nothing to complete');
    s = run(s, type('x'));
    assert.equal(s.hint, undefined, 'typing clears the hint');
    s = run(state(), type('/ta'), { type: 'complete' });
    assert.deepEqual([s.input.text, s.hint], ['/task', '/tasks  /task']);
    s = run(s, { type: 'complete' });
    assert.deepEqual([s.input.text, s.hint], ['/task', '/tasks  /task'], '/task is whole: Tab lists both rather than making it /tasks');
    s = run(state(), type('/tasks'), { type: 'complete' });
    assert.deepEqual([s.input.text, s.hint], ['/tasks', 'nothing to complete'], 'a whole word that begins no other stays as it was');
    s = run(state(), type('/task a'), { type: 'complete' });
    assert.deepEqual([s.input.text, s.hint], ['/task a', 'add  assign'], "a command's actions after it");
    s = run(state(), type('/task c'), { type: 'complete' });
    assert.equal(s.input.text, '/task cancel ');
    s = run(state(), type('/task assign 1 al'), { type: 'complete' });
    assert.equal(s.input.text, '/task assign 1 alice ', 'then member names, as for any other word');
  });

  test('hint sets and clears the hint line', () => {
    assert.equal(run(state(), { type: 'hint', text: 'psst' }).hint, 'psst');
    assert.equal(run(state({ hint: 'x' }), { type: 'hint', text: undefined }).hint, undefined);
  });
});

describe('reduce: the rest', () => {
  test('tick moves the clock', () => {
    assert.equal(run(state(), { type: 'tick', now: NOW + 5000 }).now, NOW + 5000);
  });

  test('append numbers items; clear empties the transcript and starts a new epoch', () => {
    let s = run(state(), { type: 'append', items: [{ kind: 'user', text: 'a' }, { kind: 'info', text: 'b' }] });
    assert.deepEqual(s.transcript.map((i) => i.id), [1, 2]);
    s = run(s, { type: 'clear' }, { type: 'append', items: [{ kind: 'info', text: 'c' }] });
    assert.deepEqual([s.epoch, s.transcript.map((i) => i.id)], [1, [3]]);
  });

  test('quit, force, stopped: each only from the phase before it', () => {
    let s = run(state(), { type: 'force_requested' });
    assert.equal(s.phase, 'running', 'no force without a stop under way');
    s = run(s, { type: 'quit_requested' });
    assert.equal(s.phase, 'stopping');
    assert.equal(run(s, { type: 'quit_requested' }).phase, 'stopping');
    s = run(s, { type: 'force_requested' }, { type: 'stopped' });
    assert.equal(s.phase, 'stopped');
  });

  test('the team store down: a line in the transcript and the header holds it; back: a line and the header clears', () => {
    let s = run(state(), { type: 'store_status', status: { state: 'down', reason: 'Redis cannot be reached', retryInMs: 800 } });
    assert.equal(s.storeDown, 'Redis cannot be reached; retrying (calls wait until it is back)');
    assert.deepEqual(s.transcript.map((i) => [i.kind, 'text' in i ? i.text : '']), [['error', 'Redis cannot be reached; retrying (calls wait until it is back)']]);
    s = run(s, { type: 'store_status', status: { state: 'up' } });
    assert.equal(s.storeDown, undefined);
    assert.deepEqual(s.transcript.at(-1), { id: 2, kind: 'info', text: 'the team store is reachable again; carrying on' });
  });
});

describe('selectors', () => {
  test('session usage: the lead from its turns plus teammates from the roster, priced', () => {
    const s = state({
      leadSpent: spentOn('offline-demo', usage),
      members: [member('lead', 'idle', { usage: { input_tokens: 999, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, tool_uses: 0, duration_ms: 0 } }), member('alice', 'idle', { usage: { input_tokens: 1000, output_tokens: 500, cache_read_tokens: 0, cache_write_tokens: 0, tool_uses: 1, duration_ms: 5 } })],
    });
    assert.deepEqual(sessionUsage(s), { tokens: 125 + 1500, cost: 0 });
    // A teammate that recorded no model runs the lead's.
    assert.equal(sessionUsage({ ...s, model: 'claude-sonnet-5-5' }).cost, (1000 * 2 + 500 * 10) / 1e6);
    assert.equal(sessionUsage({ ...s, model: 'some-unpriced-model' }).cost, undefined);
    assert.equal(sessionUsage({ ...s, leadSpent: spentOn('some-unpriced-model', usage) }).cost, undefined);
  });

  test('session usage: each teammate priced as its own model, not the lead\'s', () => {
    const totals = { input_tokens: 1000, output_tokens: 500, cache_read_tokens: 0, cache_write_tokens: 0, tool_uses: 1, duration_ms: 5 };
    const s = state({ leadSpent: spentOn('claude-sonnet-5-5', usage), model: 'claude-sonnet-5-5', members: [member('lead'), member('hal', 'idle', { model: 'claude-haiku-4-5', usage: totals })] });
    const lead = (100 * 2 + 20 * 10 + 5 * 0.1) / 1e6;
    assert.equal(sessionUsage(s).cost, lead + (1000 * 1 + 500 * 5) / 1e6, 'Haiku at Haiku prices');
    // Turns priced as they were answered win over the model the member runs now (a respawn on another model).
    const respawned = member('hal', 'idle', { model: 'claude-haiku-4-5', usage: { ...totals, cost_usd: 0.5 } });
    assert.equal(sessionUsage({ ...s, members: [member('lead'), respawned] }).cost, lead + 0.5);
    const unpriced = member('hal', 'idle', { model: 'claude-haiku-4-5', usage: { ...totals, cost_usd: null } });
    assert.equal(sessionUsage({ ...s, members: [member('lead'), unpriced] }).cost, undefined);
  });

  test('session usage: a teammate\'s totals from before the REPL opened (an earlier session) are not counted', () => {
    const totals = { input_tokens: 1000, output_tokens: 500, cache_read_tokens: 0, cache_write_tokens: 0, tool_uses: 1, duration_ms: 5, cost_usd: 0.5 };
    const opened = initialState({ ...state(), members: [member('lead'), member('hal', 'idle', { model: 'claude-haiku-4-5', usage: totals })] });
    assert.deepEqual(sessionUsage(opened), { tokens: 0, cost: 0 }, 'a fresh start counts nothing from earlier sessions');
    const later = { ...opened, members: [member('lead'), member('hal', 'idle', { model: 'claude-haiku-4-5', usage: { ...totals, input_tokens: 1100, output_tokens: 520, cost_usd: 0.6 } })] };
    const now = sessionUsage(later);
    assert.equal(now.tokens, 120);
    assert.ok(now.cost !== undefined && Math.abs(now.cost - 0.1) < 1e-9);
    const cost = costText(later);
    assert.match(cost, /^agent\s+tokens\s+input\s+output\s+cache read\s+cache write\s+cached\s+cost$/m);
    assert.match(cost, /^hal\s+120\s+100\s+20\s+0\s+0\s+0%\s+\$0\.1000$/m);
    assert.match(cost, /^session \(none yet\): 120 tokens, \$0\.1000$/m);
  });

  test('session usage after --continue or /resume: what the journals recorded before, plus what is spent since; an agent gone from the roster still counts', () => {
    const totals = { input_tokens: 1000, output_tokens: 500, cache_read_tokens: 0, cache_write_tokens: 0, tool_uses: 1, duration_ms: 5, cost_usd: 0.5 };
    const spentBefore = { lead: spentOn('claude-sonnet-5-5', usage), hal: { usage: { ...ZERO_USAGE, input_tokens: 40 }, cost: 0.25 }, gone: { usage: { ...ZERO_USAGE, output_tokens: 7 }, cost: 0.125 } };
    const opened = initialState({ ...state(), sessionId: 'session-0123456789', spentBefore, members: [member('lead'), member('hal', 'idle', { model: 'claude-haiku-4-5', usage: totals })] });
    const leadBefore = (100 * 2 + 20 * 10 + 5 * 0.1) / 1e6;
    assert.deepEqual(sessionUsage(opened), { tokens: 125 + 40 + 7, cost: leadBefore + 0.25 + 0.125 }, 'the earlier part of the session counts at once');
    const later = run(
      { ...opened, members: [member('lead'), member('hal', 'idle', { model: 'claude-haiku-4-5', usage: { ...totals, input_tokens: 1100, cost_usd: 0.75 } })] },
      { type: 'lead_event', event: agent({ type: 'turn_end', stopReason: 'end_turn', usage, text: '', model: 'claude-sonnet-5-5' }) },
    );
    const now = sessionUsage(later);
    assert.equal(now.tokens, 125 * 2 + 40 + 100 + 7);
    assert.ok(now.cost !== undefined && Math.abs(now.cost - (2 * leadBefore + 0.5 + 0.125)) < 1e-9);
    const cost = costText(later).split('\n');
    assert.deepEqual(cost.slice(1, 4).map((row) => row.split(/\s+/).slice(0, 2)), [['lead', '250'], ['hal', '140'], ['gone', '7']], 'the lead first; an agent no longer on the roster last');
    assert.match(cost.at(-1) ?? '', /^session session-0123456789: 397 tokens, \$0\.\d{4}$/);
    // /clear or /resume: the totals start over from the new session's records; the roster as it is now is the new base.
    const cleared = run(later, { type: 'session_spending', spent: {} });
    assert.deepEqual(sessionUsage(cleared), { tokens: 0, cost: 0 });
    const resumed = run(later, { type: 'session_spending', spent: { gone: spentBefore.gone } });
    assert.deepEqual(sessionUsage(resumed), { tokens: 7, cost: 0.125 });
  });

  test('still running and pending per sender', () => {
    assert.deepEqual(stillRunning([member('lead'), member('a', 'working'), member('b', 'shutdown'), member('c', 'shutting_down')]), ['a', 'c']);
    assert.deepEqual([...pendingBySender({ queue: [request('1'), request('2'), request('3', 'plan', 'bob')] })], [['alice', 2], ['bob', 1]]);
  });

  test("current tasks: each owner's tasks in progress, lowest id first; pending, finished and unowned ones are not current", () => {
    const board = [
      task('10', 'in_progress', { owner: 'alice' }),
      task('9', 'in_progress', { owner: 'alice' }),
      task('3', 'in_progress', { owner: 'bob' }),
      task('4', 'pending', { owner: 'carol' }),
      task('5', 'completed', { owner: 'carol' }),
      task('6', 'failed', { owner: 'bob' }),
      task('7', 'pending'),
    ];
    const current = currentTasks({ tasks: board });
    assert.deepEqual([...current].map(([owner, tasks]) => [owner, tasks.map((t) => t.id)]), [['bob', ['3']], ['alice', ['9', '10']]]);
    assert.equal(currentTasks({ tasks: [] }).size, 0);
  });
});
