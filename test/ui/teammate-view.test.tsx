import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { render } from 'ink';
import { createRepl } from '../../src/ui/app.js';
import { interpretKey } from '../../src/ui/keys.js';
import { reduce } from '../../src/ui/state/reduce.js';
import { neighbour, shownItems } from '../../src/ui/state/view.js';
import { logLineOf, type LogEvent } from '../../src/store/agent-log.js';
import { openFileStore } from '../../src/store/file/file-store.js';
import type { ReplStore } from '../../src/ui/runtime.js';
import type { LogBatch } from '../../src/store/team-store.js';
import { createStore } from '../../src/ui/store.js';
import { mergeBatches, ViewFollower } from '../../src/ui/view-follower.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { FakeRuntime } from './fake-runtime.js';
import { agent, key, member, state } from './fixtures.js';
import { FakeStdin, FakeStdout, KEYS, occurrences, plain } from './terminal.js';

type Draft<E> = E extends unknown ? Omit<E, 'at'> : never;
const usage = { input_tokens: 10, output_tokens: 5, cache_read_tokens: 0, cache_write_tokens: 0 };
const SHIFT_DOWN = '\u001b[1;2B';
const SHIFT_UP = '\u001b[1;2A';
const team = [member('lead'), member('alice', 'working'), member('bob')];

describe('the teammate view: state and keys', () => {
  test('Shift+↓/↑ and Ctrl+N/P go round lead, then the roster; from any focus', () => {
    const s = state({ members: team });
    assert.equal(neighbour(s, 1), 'alice');
    assert.equal(neighbour(s, -1), 'bob');
    assert.equal(neighbour({ ...s, view: 'bob' }, 1), 'lead');
    assert.deepEqual(interpretKey(s, '', key({ shift: true, downArrow: true })).effects, [{ type: 'view', name: 'alice' }]);
    assert.deepEqual(interpretKey(s, 'n', key({ ctrl: true })).effects, [{ type: 'view', name: 'alice' }]);
    assert.deepEqual(interpretKey({ ...s, focus: 'queue' }, '', key({ shift: true, upArrow: true })).effects, [{ type: 'view', name: 'bob' }]);
    assert.deepEqual(interpretKey(s, 'p', key({ ctrl: true })).effects, [{ type: 'view', name: 'bob' }]);
    assert.deepEqual(interpretKey(s, 'o', key({ ctrl: true })).effects, [{ type: 'toggle_detail' }]);
    // Plain ↑ still browses the history.
    assert.deepEqual(interpretKey(s, '', key({ upArrow: true })).actions, [{ type: 'history', direction: -1 }]);
  });

  test('a batch of the log folds into that teammate\'s view; switching starts a new <Static> and keeps the lead\'s transcript', () => {
    let s = reduce(state({ members: team }), { type: 'append', items: [{ kind: 'user', text: 'hello lead' }] });
    s = reduce(s, { type: 'view', name: 'alice' });
    assert.equal(s.epoch, 1);
    const lines = [
      { at: '', type: 'input', text: 'From lead: list the files' },
      { at: '', type: 'text_delta', text: 'Looking.' },
      { at: '', type: 'tool_call', id: 't1', name: 'bash', input: { command: 'ls' } },
      { at: '', type: 'tool_result', id: 't1', name: 'bash', content: 'a.txt\nb.txt', isError: false },
      { at: '', type: 'text_delta', text: 'Two fi' },
    ] as const;
    s = reduce(s, { type: 'agent_log', name: 'alice', batch: { lines: [...lines], next: 'at-100', skipped: true } });
    const items = shownItems(s).map(({ id: _id, ...item }) => item);
    assert.deepEqual(items, [
      { kind: 'info', text: "earlier lines of alice's log are not shown here: teams logs alice" },
      { kind: 'notice', text: 'From lead: list the files' },
      { kind: 'said', from: 'alice', text: 'Looking.' },
      { kind: 'tool', name: 'bash', input: 'command=ls', result: 'a.txt b.txt', isError: false, detail: 'a.txt\nb.txt' },
    ]);
    assert.equal(s.views.alice?.fold.text, 'Two fi', 'the unfinished text stays live');
    assert.deepEqual(s.views.alice?.cursor, 'at-100');
    s = reduce(s, { type: 'view', name: 'lead' });
    assert.equal(s.epoch, 2);
    assert.deepEqual(shownItems(s).map((i) => i.kind), ['user']);
    // What the REPL says while a teammate is shown (a command's answer, an error) shows there, and stays in the lead's transcript.
    s = reduce(reduce(s, { type: 'view', name: 'alice' }), { type: 'append', items: [{ kind: 'error', text: 'not sent to alice: no lead' }] });
    assert.equal(shownItems(s).at(-1)?.kind, 'error');
    assert.equal(s.transcript.at(-1)?.kind, 'error');
    s = reduce(s, { type: 'view', name: 'lead' });
    // /clear in a teammate's view clears what it keeps of that view only.
    s = reduce(reduce(s, { type: 'view', name: 'alice' }), { type: 'clear' });
    assert.equal(shownItems(s).length, 0);
    assert.equal(s.transcript.length, 2);
  });
});

/** The App on Ink's real renderer for `runtime`, with the team above: its keyboard, what it wrote, and the way out. */
function mountTeam(runtime: FakeRuntime) {
  const repl = createRepl(runtime, state({ members: team }));
  const disconnect = repl.controller.connect(60_000);
  const stdout = new FakeStdout();
  const stdin = new FakeStdin();
  const instance = render(repl.element, { stdout: stdout.asStream(), stdin: stdin.asStream(), exitOnCtrlC: false, patchConsole: false });
  const screen = () => plain(stdout.written);
  return {
    repl,
    stdin,
    screen,
    until: (what: string, check: () => boolean) => waitFor(() => check() || undefined, `${what}; the screen:\n${screen()}`, 5000),
    close: () => {
      disconnect();
      instance.unmount();
    },
  };
}

describe('following the shown view', () => {
  test('mergeBatches keeps the lines in order and goes on from the last', () => {
    const line = (text: string) => ({ type: 'raw' as const, text });
    assert.equal(mergeBatches([]), undefined);
    assert.deepEqual(mergeBatches([
      { lines: [line('a')], next: 'at-2', skipped: true },
      { lines: [line('b'), line('c')], next: 'at-6', skipped: false },
    ]), { lines: [line('a'), line('b'), line('c')], next: 'at-6', skipped: true });
  });

  test('a burst of batches reaches the store as the first at once, then the rest as one; a stopped follow brings nothing', async () => {
    let deliver: (batch: LogBatch) => void = () => undefined;
    let closed = 0;
    const logs: ReplStore['agentLogs'] = {
      follow: async (_name, listener) => {
        deliver = listener;
        return { close: async () => void closed++ };
      },
    };
    const store = createStore(state({ members: team }));
    const batches: LogBatch[] = [];
    const dispatch = store.dispatch;
    store.dispatch = (action) => {
      if (action.type === 'agent_log') batches.push(action.batch);
      dispatch(action);
    };
    const follower = new ViewFollower(logs, store, (text) => assert.fail(text));
    follower.follow('alice');
    await waitFor(() => (deliver.length > 0 ? true : undefined), 'the follow to open');
    const delta = (i: number): LogBatch => ({ lines: [{ at: '', type: 'text_delta', text: `w${i} ` }], next: `at-${i + 1}`, skipped: false });
    for (let i = 0; i < 10; i++) deliver(delta(i));
    assert.equal(batches.length, 1, 'the first batch went at once');
    await waitFor(() => (batches.length === 2 ? true : undefined), 'the rest, gathered');
    assert.equal(batches[1]?.lines.length, 9);
    assert.deepEqual(batches[1]?.next, 'at-10');
    assert.equal(store.getState().views.alice?.fold.text, Array.from({ length: 10 }, (_, i) => `w${i} `).join(''));
    // Once stopped, what the closing follow still brings is dropped: read again from the cursor when shown next.
    follower.stop();
    deliver(delta(10));
    deliver(delta(11));
    await waitFor(() => (closed === 1 ? true : undefined), 'the follow closed');
    assert.equal(batches.length, 2);
    assert.deepEqual(store.getState().views.alice?.cursor, 'at-10');
  });
});

describe('the teammate view, rendered, over real log files', () => {
  let cleanup: () => void = () => undefined;
  let logs: string;
  let agentLogs: ReplStore['agentLogs'];
  beforeEach(() => {
    const temp = tempHome();
    cleanup = temp.cleanup;
    const store = openFileStore({ root: temp.home, team: 'default' });
    logs = join(temp.home, 'logs');
    mkdirSync(logs, { recursive: true });
    agentLogs = store.agentLogs;
  });
  afterEach(() => cleanup());

  const write = (name: string, ...events: Draft<LogEvent>[]) => {
    for (const event of events) appendFileSync(join(logs, `${name}.log`), logLineOf(event));
  };

  test('history, then live; typing and Esc go to the teammate; the lead comes back whole; a hidden view is not read', async () => {
    const runtime = new FakeRuntime();
    // Every follow the REPL opens is counted until closed: a hidden view must have none.
    let open = 0;
    const froms: unknown[] = [];
    runtime.agentLogs = {
      follow: async (name, listener, options) => {
        froms.push(options?.from);
        const subscription = await agentLogs.follow(name, listener, options);
        open++;
        return { close: async () => { open--; await subscription.close(); } };
      },
    };
    write('alice', { type: 'input', text: 'From lead: tidy the build cache' }, { type: 'tool_call', id: 't1', name: 'bash', input: { command: 'du -sh build' } }, { type: 'tool_result', id: 't1', name: 'bash', content: '12M build', isError: false });
    const { repl, stdin, screen, until, close } = mountTeam(runtime);
    try {
      runtime.events.emit(agent({ type: 'turn_end', stopReason: 'end_turn', usage, text: 'The lead said this first.', model: 'm' }));
      await until("the lead's words", () => screen().includes('The lead said this first.'));

      stdin.write(SHIFT_DOWN);
      await until("alice's earlier tool call", () => screen().includes('⚙ bash command=du -sh build → 12M build'));
      assert.match(screen(), /Viewing alice: what you type goes to alice as your message/);
      assert.match(screen(), /From lead: tidy the build cache/);
      // Live: streamed text shows as it comes, then the finished block and the next call.
      write('alice', { type: 'turn_start', call: 2 }, { type: 'text_delta', text: 'Now removing the ' });
      await until('the streamed text', () => screen().includes('Now removing the'));
      write('alice', { type: 'text_delta', text: 'cache.' }, { type: 'tool_call', id: 't2', name: 'bash', input: { command: 'rm -rf build/cache' } }, { type: 'status', status: 'awaiting_approval' });
      await until('the running call and the status', () => screen().includes('⚙ bash command=rm -rf build/cache …') && screen().includes('· alice is awaiting_approval'));

      for (const ch of 'keep the logs') stdin.write(ch);
      stdin.write(KEYS.enter);
      await until('the message to alice', () => runtime.called('tell').length === 1);
      assert.deepEqual(runtime.called('tell'), [['alice', 'keep the logs']]);
      assert.deepEqual(runtime.called('prompt'), [], 'nothing went to the lead');
      stdin.write(KEYS.escape);
      await until('the interrupt', () => runtime.called('interrupt-teammate').length === 1);
      assert.deepEqual(runtime.called('interrupt-teammate'), [['alice']]);
      assert.deepEqual(runtime.called('interrupt'), [], 'the lead was not interrupted');

      // Back to the lead: its transcript is printed again, whole; alice's log is no longer followed.
      const before = occurrences(screen(), 'The lead said this first.');
      stdin.write(SHIFT_UP);
      await until('the lead reprinted', () => occurrences(screen(), 'The lead said this first.') === before + 1);
      await until('no follow left open', () => open === 0);
      write('alice', { type: 'tool_result', id: 't2', name: 'bash', content: 'removed', isError: false });
      const hidden = repl.store.getState().views.alice;
      // Whatever the lead does meanwhile renders; alice's view does not move.
      runtime.events.emit(agent({ type: 'turn_end', stopReason: 'end_turn', usage, text: 'Second lead turn.', model: 'm' }));
      await until('the second lead turn', () => screen().includes('Second lead turn.'));
      assert.equal(repl.store.getState().views.alice, hidden, 'a hidden view is not read');

      // Shown again: it goes on from where it stopped, and what came meanwhile appears once.
      stdin.write(SHIFT_DOWN);
      await until('the result that came while hidden', () => screen().includes('⚙ bash command=rm -rf build/cache → removed'));
      assert.deepEqual(froms.at(-1), hidden?.cursor);
      assert.equal(occurrences(screen(), '→ removed'), 1);
    } finally {
      close();
    }
    await waitFor(() => (open === 0 ? true : undefined), 'every follow closed after disconnect');
  });

  test('/view names a member or goes back; an unknown one is an error with the team listed', async () => {
    const runtime = new FakeRuntime();
    runtime.agentLogs = agentLogs;
    write('bob', { type: 'text_delta', text: 'bob here' }, { type: 'turn_end', stopReason: 'end_turn', usage, text: 'bob here', model: 'm' });
    const { repl, stdin, screen, close } = mountTeam(runtime);
    const typeLine = (text: string) => {
      for (const ch of text) stdin.write(ch);
      stdin.write(KEYS.enter);
    };
    try {
      typeLine('/view carl');
      await waitFor(() => screen().includes("✗ no member 'carl' to view") || undefined, 'the error');
      assert.match(screen(), /the team: lead, alice, bob/);
      typeLine('/view bob');
      await waitFor(() => screen().includes('bob here') || undefined, "bob's words");
      assert.equal(repl.store.getState().view, 'bob');
      typeLine('/view');
      await waitFor(() => (repl.store.getState().view === 'lead' ? true : undefined), 'back to the lead');
    } finally {
      close();
    }
  });
});
