import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { interpretKey } from '../../src/ui/keys.js';
import { reduce } from '../../src/ui/state/reduce.js';
import { key, request, state } from './fixtures.js';

const plan = request('plan-1', 'plan');
const perm = request('perm-1', 'permission');

describe('the keyboard map: input line', () => {
  test('Enter submits the trimmed line; an empty line does nothing', () => {
    assert.deepEqual(interpretKey(state({ input: { text: ' hi ', cursor: 4 } }), '', key({ return: true })), {
      actions: [{ type: 'line_submitted' }],
      effects: [{ type: 'line', text: 'hi' }],
    });
    assert.deepEqual(interpretKey(state(), '', key({ return: true })), { actions: [], effects: [] });
  });

  test('Esc interrupts the agent shown: the lead, or the teammate being viewed', () => {
    assert.deepEqual(interpretKey(state(), '', key({ escape: true })).effects, [{ type: 'interrupt', agent: 'lead' }]);
    assert.deepEqual(interpretKey(state({ view: 'alice' }), '', key({ escape: true })).effects, [{ type: 'interrupt', agent: 'alice' }]);
  });

  test('Tab: completes what is typed; on an empty line, focuses the queue when requests wait', () => {
    assert.deepEqual(interpretKey(state({ input: { text: '/sp', cursor: 3 } }), '', key({ tab: true })).actions, [{ type: 'complete' }]);
    assert.deepEqual(interpretKey(state({ queue: [plan] }), '', key({ tab: true })).actions, [{ type: 'focus', focus: 'queue' }]);
    assert.deepEqual(interpretKey(state(), '', key({ tab: true })).actions.map((a) => a.type), ['hint']);
  });

  test('Shift+Tab cycles the lead\'s mode, never to bypass, from the line or the queue, and types nothing', () => {
    const next = (extra: Parameters<typeof state>[0]) => interpretKey(state(extra), '', key({ tab: true, shift: true }));
    assert.deepEqual(next({ leadMode: 'default' }), { actions: [], effects: [{ type: 'lead_mode', mode: 'accept-edits' }] });
    assert.deepEqual(next({ leadMode: 'accept-edits' }).effects, [{ type: 'lead_mode', mode: 'plan' }]);
    assert.deepEqual(next({ leadMode: 'plan' }).effects, [{ type: 'lead_mode', mode: 'default' }]);
    assert.deepEqual(next({ leadMode: 'bypass' }).effects, [{ type: 'lead_mode', mode: 'default' }]);
    assert.deepEqual(next({ leadMode: 'default', input: { text: '/sp', cursor: 3 } }).effects, [{ type: 'lead_mode', mode: 'accept-edits' }]);
    assert.deepEqual(next({ leadMode: 'plan', focus: 'queue', queue: [plan] }).effects, [{ type: 'lead_mode', mode: 'default' }]);
  });

  test('in the queue, typing that is no queue key goes back to the line, typed there', () => {
    const s = state({ focus: 'queue', queue: [plan] });
    assert.deepEqual(interpretKey(s, 'h', key()).actions, [{ type: 'focus', focus: 'input' }, { type: 'edit', edit: { op: 'insert', text: 'h' } }]);
    let after = s;
    for (const a of interpretKey(s, 'h', key()).actions) after = reduce(after, a);
    assert.equal(after.focus, 'input');
    assert.equal(after.input.text, 'h');
    // The queue's own letters stay its own.
    assert.equal(interpretKey(s, 'n', key()).actions[0]?.type, 'open_reason');
  });

  test('↑/↓ browse the history; editing keys edit', () => {
    assert.deepEqual(interpretKey(state(), '', key({ upArrow: true })).actions, [{ type: 'history', direction: -1 }]);
    assert.deepEqual(interpretKey(state(), '', key({ downArrow: true })).actions, [{ type: 'history', direction: 1 }]);
    const edits = [
      [key({ backspace: true }), '', 'backspace'],
      [key({ delete: true }), '', 'backspace'],
      [key({ leftArrow: true }), '', 'left'],
      [key({ rightArrow: true }), '', 'right'],
      [key({ ctrl: true }), 'a', 'home'],
      [key({ ctrl: true }), 'e', 'end'],
      [key({ ctrl: true }), 'u', 'kill'],
    ] as const;
    for (const [k, input, op] of edits) assert.deepEqual(interpretKey(state(), input, k).actions, [{ type: 'edit', edit: { op } }], op);
    assert.deepEqual(interpretKey(state(), 'y', key()).actions, [{ type: 'edit', edit: { op: 'insert', text: 'y' } }], 'y types a y here');
    assert.deepEqual(interpretKey(state(), 'x', key({ ctrl: true })).actions, [], 'unbound control keys do nothing');
  });
});

describe('the keyboard map: the approval queue', () => {
  const inQueue = (extra = {}) => state({ queue: [plan, perm], focus: 'queue', ...extra });

  test('↑/↓ (and k/j) select; Esc and Tab go back to the input line', () => {
    assert.deepEqual(interpretKey(inQueue(), '', key({ downArrow: true })).actions, [{ type: 'select', delta: 1 }]);
    assert.deepEqual(interpretKey(inQueue(), 'k', key()).actions, [{ type: 'select', delta: -1 }]);
    assert.deepEqual(interpretKey(inQueue(), '', key({ escape: true })).actions, [{ type: 'focus', focus: 'input' }]);
    assert.deepEqual(interpretKey(inQueue(), '', key({ tab: true })).actions, [{ type: 'focus', focus: 'input' }]);
    assert.deepEqual(interpretKey(inQueue(), '', key({ escape: true })).effects, [], 'Esc in the queue does not interrupt the lead');
  });

  test('y approves the selected request', () => {
    assert.deepEqual(interpretKey(inQueue({ selected: 1 }), 'y', key()), {
      actions: [{ type: 'deciding', requestId: 'perm-1' }],
      effects: [{ type: 'decide', requestId: 'perm-1', approve: true }],
    });
  });

  test('n opens the reason input; v toggles the whole text', () => {
    assert.deepEqual(interpretKey(inQueue(), 'n', key()).actions, [{ type: 'open_reason' }]);
    assert.deepEqual(interpretKey(inQueue(), 'v', key()).actions, [{ type: 'toggle_expand' }]);
  });

  test('v on a permission with its tool call opens the view and asks for its preview; closing asks nothing', () => {
    const withTool = request('perm-t', 'permission', 'alice', { tool: { name: 'bash', input: { command: 'ls' }, reason: 'r' } });
    assert.deepEqual(interpretKey(inQueue({ queue: [withTool] }), 'v', key()), { actions: [{ type: 'toggle_expand' }], effects: [{ type: 'preview', requestId: 'perm-t' }] });
    assert.deepEqual(interpretKey(inQueue({ queue: [withTool], expanded: true }), 'v', key()), { actions: [{ type: 'toggle_expand' }], effects: [] });
    assert.deepEqual(interpretKey(inQueue({ selected: 1 }), 'v', key()).effects, [], 'a permission without its call (an older journal) has no preview to read');
  });

  test('a on a permission opens the choice with a suggested rule; on another kind it explains', () => {
    assert.deepEqual(interpretKey(inQueue({ selected: 1 }), 'a', key()), { actions: [{ type: 'open_rule', suggestion: '' }], effects: [] }, 'no call recorded: nothing to suggest');
    const withTool = request('perm-t', 'permission', 'alice', { tool: { name: 'bash', input: { command: 'npm test -- --watch' }, reason: 'r' } });
    assert.deepEqual(interpretKey(inQueue({ queue: [withTool] }), 'a', key()).actions, [{ type: 'open_rule', suggestion: 'Bash(npm test -- --watch)' }]);
    const onPlan = interpretKey(inQueue(), 'a', key());
    assert.deepEqual(onPlan.effects, []);
    assert.equal(onPlan.actions[0]?.type, 'hint');
  });

  test('a request already being decided ignores y, n and a; an empty queue ignores them too', () => {
    for (const input of ['y', 'n', 'a']) {
      assert.deepEqual(interpretKey(inQueue({ deciding: ['plan-1'] }), input, key()), { actions: [], effects: [] }, input);
      assert.deepEqual(interpretKey(state({ focus: 'queue' }), input, key()), { actions: [], effects: [] }, input);
    }
  });
});

describe('the keyboard map: allowing from the queue (a)', () => {
  const inRule = (stage: 'choose' | 'edit', text = 'bash(npm test*)') =>
    state({ queue: [perm], focus: 'rule', rule: { requestId: 'perm-1', stage, text, cursor: text.length } });

  test('the choice: s approves this exact call for the session (the existing always), p edits the rule, Esc cancels', () => {
    assert.deepEqual(interpretKey(inRule('choose'), 's', key()), {
      actions: [{ type: 'deciding', requestId: 'perm-1' }],
      effects: [{ type: 'decide', requestId: 'perm-1', approve: true, always: true }],
    });
    assert.deepEqual(interpretKey(inRule('choose'), 'p', key()), { actions: [{ type: 'edit_rule' }], effects: [] });
    assert.deepEqual(interpretKey(inRule('choose'), 'y', key()), { actions: [], effects: [] }, 'other keys do nothing here');
    assert.deepEqual(interpretKey(inRule('choose'), '', key({ escape: true })), { actions: [{ type: 'close_rule' }], effects: [] });
  });

  test('editing: keys edit the rule; Enter on a valid rule saves it and approves; on an invalid one shows the parser error', () => {
    assert.deepEqual(interpretKey(inRule('edit'), 'x', key()).actions, [{ type: 'edit', edit: { op: 'insert', text: 'x' } }]);
    assert.deepEqual(interpretKey(inRule('edit'), 's', key()).actions, [{ type: 'edit', edit: { op: 'insert', text: 's' } }], 's types an s once editing');
    assert.deepEqual(interpretKey(inRule('edit', ' Bash(npm  test:*) '), '', key({ return: true })), {
      actions: [{ type: 'deciding', requestId: 'perm-1' }],
      effects: [{ type: 'allow_rule', requestId: 'perm-1', rule: { tool: 'bash', pattern: 'npm test:*' } }],
    });
    assert.deepEqual(interpretKey(inRule('edit', 'bash(npm test*'), '', key({ return: true })), {
      actions: [{ type: 'rule_invalid', error: "unbalanced parentheses in 'bash(npm test*'" }],
      effects: [],
    });
    assert.deepEqual(interpretKey(inRule('edit', 'shell(ls)'), '', key({ return: true })).actions[0]?.type, 'rule_invalid');
    assert.deepEqual(interpretKey(inRule('edit'), '', key({ escape: true })), { actions: [{ type: 'close_rule' }], effects: [] });
  });
});

describe('the keyboard map: the reason input', () => {
  const inReason = (text: string) => state({ queue: [plan], focus: 'reason', reason: { requestId: 'plan-1', text, cursor: text.length } });

  test('Enter rejects with the reason (none if blank); Esc cancels', () => {
    assert.deepEqual(interpretKey(inReason(' too broad '), '', key({ return: true })), {
      actions: [{ type: 'deciding', requestId: 'plan-1' }],
      effects: [{ type: 'decide', requestId: 'plan-1', approve: false, note: 'too broad' }],
    });
    assert.deepEqual(interpretKey(inReason(''), '', key({ return: true })).effects, [{ type: 'decide', requestId: 'plan-1', approve: false }]);
    assert.deepEqual(interpretKey(inReason('x'), '', key({ escape: true })).actions, [{ type: 'close_reason' }]);
  });

  test('letters type into the reason, y included', () => {
    assert.deepEqual(interpretKey(inReason(''), 'y', key()).actions, [{ type: 'edit', edit: { op: 'insert', text: 'y' } }]);
    assert.deepEqual(interpretKey(inReason(''), '', key({ upArrow: true })).actions, []);
  });
});

describe('the keyboard map: leaving', () => {
  test('Ctrl+C as in Claude Code: text typed is cleared; an empty line asks for a second within 2 s, which stops the team; one more forces it; after that nothing', () => {
    const ctrlC = key({ ctrl: true });
    assert.deepEqual(interpretKey(state({ input: { text: 'half a sente', cursor: 12 } }), 'c', ctrlC, 1_000), { actions: [{ type: 'edit', edit: { op: 'kill' } }], effects: [] });
    assert.deepEqual(interpretKey(state(), 'c', ctrlC, 1_000), { actions: [{ type: 'exit_armed', at: 1_000 }], effects: [] });
    const armed = reduce(state(), { type: 'exit_armed', at: 1_000 });
    assert.equal(armed.hint, 'Press Ctrl+C again to exit');
    assert.deepEqual(interpretKey(armed, 'c', ctrlC, 3_000), { actions: [{ type: 'quit_requested' }], effects: [{ type: 'stop' }] });
    assert.deepEqual(interpretKey(armed, 'c', ctrlC, 3_001), { actions: [{ type: 'exit_armed', at: 3_001 }], effects: [] }, 'too late: it asks again');
    const lapsed = reduce(armed, { type: 'tick', now: 3_001 });
    assert.deepEqual([lapsed.exitArmedAt, lapsed.hint], [undefined, undefined]);
    assert.deepEqual(interpretKey(state({ phase: 'stopping' }), 'c', key({ ctrl: true })), { actions: [{ type: 'force_requested' }], effects: [{ type: 'force_stop' }] });
    assert.deepEqual(interpretKey(state({ phase: 'forcing' }), 'c', key({ ctrl: true })), { actions: [], effects: [] });
  });

  test('while stopping, other keys do nothing', () => {
    assert.deepEqual(interpretKey(state({ phase: 'stopping', input: { text: 'hi', cursor: 2 } }), '', key({ return: true })), { actions: [], effects: [] });
    assert.deepEqual(interpretKey(state({ phase: 'stopping' }), 'x', key()), { actions: [], effects: [] });
  });
});

describe("the keyboard map: /resume's picker", () => {
  const choice = (id: string, current = false) => ({ id, lastActive: '2026-12-04 10:00', prompt: `"${id}"`, records: 3, tokens: 1200, current });
  const opened = (...choices: ReturnType<typeof choice>[]) => reduce(state(), { type: 'open_picker', choices });
  const press = (from: ReturnType<typeof state>, input: string, k = key()) => {
    const { actions, effects } = interpretKey(from, input, k);
    return { next: actions.reduce(reduce, from), effects };
  };

  test('it opens on the newest session the lead is not in; ↑/↓ and k/j move within the list; Enter goes on with the chosen one and closes', () => {
    const s = opened(choice('session-now0000000', true), choice('session-aaaaaaaaaa'), choice('session-bbbbbbbbbb'));
    assert.equal(s.focus, 'picker');
    assert.equal(s.picker?.selected, 1, 'not the one the lead is in');
    let { next } = press(s, '', key({ downArrow: true }));
    assert.equal(next.picker?.selected, 2);
    next = press(next, 'j').next;
    assert.equal(next.picker?.selected, 2, 'the last stays the last');
    next = press(press(press(next, 'k').next, '', key({ upArrow: true })).next, '', key({ upArrow: true })).next;
    assert.equal(next.picker?.selected, 0, 'the first stays the first');
    next = press(next, '', key({ downArrow: true })).next;
    const enter = press(next, '', key({ return: true }));
    assert.deepEqual(enter.effects, [{ type: 'resume', session: 'session-aaaaaaaaaa' }]);
    assert.equal(enter.next.picker, undefined);
    assert.equal(enter.next.focus, 'input');
  });

  test('Esc closes it, resuming nothing; other typing goes back to the input line, typed there', () => {
    const s = opened(choice('session-aaaaaaaaaa'));
    const esc = press(s, '', key({ escape: true }));
    assert.deepEqual(esc.effects, []);
    assert.equal(esc.next.picker, undefined);
    assert.equal(esc.next.focus, 'input');
    const typed = press(s, 'w');
    assert.equal(typed.next.focus, 'input');
    assert.equal(typed.next.input.text, 'w');
    assert.deepEqual(typed.effects, []);
  });
});
