import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { render as renderInk } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import { createRepl } from '../../src/ui/app.js';
import { waitFor } from '../helpers/wait.js';
import { FakeRuntime } from './fake-runtime.js';
import { agent, member, request, state } from './fixtures.js';
import { FakeStdin, FakeStdout, KEYS, occurrences, plain } from './terminal.js';

const usage = { input_tokens: 10, output_tokens: 5, cache_read_tokens: 0, cache_write_tokens: 0 };
const disconnects: (() => void)[] = [];

afterEach(() => {
  for (const disconnect of disconnects.splice(0)) disconnect();
  cleanup();
});

/** The App for a fake runtime, rendered by ink-testing-library; `type` writes keys one by one. */
function mount(runtime = new FakeRuntime()) {
  const repl = createRepl(runtime, state());
  disconnects.push(repl.controller.connect(60_000));
  const view = render(repl.element);
  const screen = () => plain(view.lastFrame());
  const type = (...keys: string[]) => {
    for (const k of keys) view.stdin.write(k);
  };
  const until = (what: string, check: () => boolean) => waitFor(() => check() || undefined, `${what}; the screen:\n${screen()}`, 5000);
  return { runtime, repl, view, screen, type, until };
}

const typeText = (type: (...keys: string[]) => void, text: string) => type(...text.split(''));

describe('the App with a stand-in runtime', () => {
  test('typed words go to the lead, show in the transcript, and come back with ↑', async () => {
    const { runtime, screen, type, until } = mount();
    typeText(type, 'hello lead');
    await until('the typed text', () => screen().includes('› hello lead'));
    type(KEYS.enter);
    assert.deepEqual(runtime.called('prompt'), [['hello lead']]);
    await until('the input line to clear', () => /^› hello lead$/m.test(screen()) && screen().includes('message the lead'));
    type(KEYS.up);
    await until('the history entry', () => /^› hello lead$/m.test(screen().split('\n').at(-1) ?? ''));
  });

  test('Tab completes a command and a member name', async () => {
    const { screen, type, until } = mount();
    typeText(type, '/sh');
    type(KEYS.tab);
    typeText(type, 'al');
    type(KEYS.tab);
    await until('the completed line', () => screen().includes('› /shutdown alice'));
  });

  test('slash commands run against the runtime; a bad one is one error line', async () => {
    const { runtime, screen, type, until } = mount();
    typeText(type, '/spawn bob tester --plan-mode');
    type(KEYS.enter);
    await until('the spawn answer', () => screen().includes('· spawned bob (tester, plan mode, offline-demo, pid 4242)'));
    assert.deepEqual(runtime.called('spawn'), [[{ name: 'bob', role: 'tester', prompt: '', planMode: true, asker: 'human' }]]);
    typeText(type, '/nope');
    type(KEYS.enter);
    await until('the error', () => screen().includes("✗ unknown command '/nope'; /help lists them"));
    typeText(type, '/send alice hi there');
    type(KEYS.enter);
    await until('the send answer', () => screen().includes('· sent to alice'));
    // The human's own words: sent as the user's (a user_message), not the lead's.
    assert.deepEqual(runtime.called('tell'), [['alice', 'hi there']]);
    // The human's /mode reaches the runtime as the human's: the lead's bound does not apply to it.
    typeText(type, '/mode bob accept-edits');
    type(KEYS.enter);
    await until('the mode answer', () => screen().includes("· set bob's permission mode to accept-edits"));
    assert.deepEqual(runtime.called('setMode'), [['bob', 'accept-edits', 'human']]);
  });

  test('Esc interrupts the lead only when it is busy', async () => {
    const { runtime, type, until } = mount();
    type(KEYS.escape);
    runtime.loop.busy = true;
    type(KEYS.escape);
    await until('the interrupt', () => runtime.called('interrupt').length === 1);
  });

  test('the lead streams into the live area, then the turn lands in the transcript', async () => {
    const { runtime, screen, until } = mount();
    runtime.events.emit(agent({ type: 'turn_start', call: 1 }));
    await until('thinking', () => screen().includes('lead is thinking'));
    for (const text of ['Handing ', 'this ', 'over.']) runtime.events.emit(agent({ type: 'text_delta', text }));
    await until('the streamed text', () => screen().includes('lead  Handing this over.'));
    runtime.events.emit(agent({ type: 'turn_end', stopReason: 'end_turn', usage, text: 'Handing this over.', model: 'offline-demo' }));
    runtime.events.emit(agent({ type: 'idle', reason: 'end_turn', lastText: '' }));
    await until('the finished turn', () => !screen().includes('thinking') && occurrences(screen(), 'Handing this over.') === 1);
    assert.match(screen(), /15 tokens/);
  });

  test('keys decide from the queue: Tab, ↓, a then s approves a permission always', async () => {
    const { runtime, screen, type, until } = mount();
    runtime.pending = [request('plan-1', 'plan'), request('perm-2', 'permission', 'bob')];
    runtime.events.emit({ type: 'approvals', pending: runtime.pending });
    await until('the queue', () => screen().includes('Approvals (2)'));
    type(KEYS.tab, KEYS.down, 'a');
    await until('the choice', () => screen().includes('this exact call, for the session'));
    assert.equal(runtime.called('decide').length, 0, 'a alone decides nothing');
    type('s');
    await until('the decision', () => runtime.called('decide').length === 1);
    assert.deepEqual(runtime.called('decide')[0], ['perm-2', { approve: true, always: true, note: undefined }]);
    await until('the queue without it', () => screen().includes('Approvals (1)') && screen().includes('approved always (this session) permission request perm-2'));
    type('v');
    await until('the whole plan', () => screen().includes('plan request plan-1 from alice:'));
  });

  test('keys that come in one chunk are each handled: a Tab is never typed into the line', async () => {
    const { runtime, repl, screen, type, until } = mount();
    runtime.pending = [request('plan-1', 'plan')];
    runtime.events.emit({ type: 'approvals', pending: runtime.pending });
    await until('the queue', () => screen().includes('Approvals (1)'));
    // Tab then y, read by the terminal as one chunk (a script, or very fast fingers).
    type('\ty');
    await until('the decision', () => runtime.called('decide').length === 1);
    assert.deepEqual(runtime.called('decide')[0], ['plan-1', { approve: true, always: undefined, note: undefined }]);
    assert.equal(repl.store.getState().input.text, '');
    type('hi\r');
    await until('the line sent', () => runtime.called('prompt').length === 1);
    assert.deepEqual(runtime.called('prompt'), [['hi']]);
  });

  test('/quit asks the team to stop and shows it; Ctrl+C then forces; done resolves', async () => {
    const { runtime, repl, screen, type, until } = mount();
    runtime.events.emit({ type: 'team', members: [member('lead'), member('alice', 'shutting_down')] });
    typeText(type, '/quit');
    type(KEYS.enter);
    await until('the stopping line', () => screen().includes('Shutting the team down: waiting for alice… (Ctrl+C again to force)'));
    assert.equal(runtime.called('stop').length, 1);
    type(KEYS.ctrlC);
    await repl.controller.done;
    assert.equal(runtime.called('forceStop').length, 1);
    await until('the goodbye', () => screen().includes('The team has stopped'));
  });

  test('/clear starts the lead afresh in a new session, wipes the screen and starts a fresh transcript saying so', async () => {
    const { view, repl, type, runtime } = mount();
    repl.store.dispatch({ type: 'append', items: [{ kind: 'info', text: 'old line' }] });
    typeText(type, '/clear');
    type(KEYS.enter);
    await waitFor(() => view.frames.some((f) => f.includes('\u001b[2J')) || undefined, 'the clear-screen sequence');
    await waitFor(() => repl.store.getState().transcript.length > 0 || undefined, 'the line saying which session');
    assert.deepEqual(repl.store.getState().transcript.map((item) => item.kind === 'info' && item.text), ['the lead starts a fresh conversation in session session-fresh00001; teammates keep running']);
    assert.equal(repl.store.getState().epoch, 1);
    assert.equal(repl.store.getState().sessionId, 'session-fresh00001');
    assert.equal(runtime.called('clear').length, 1);
  });
});

describe('rendering cost', () => {
  test('streamed tokens re-render the live turn only: a finished item is written to the terminal once', async () => {
    const runtime = new FakeRuntime();
    const repl = createRepl(runtime, state());
    disconnects.push(repl.controller.connect(60_000));
    const stdout = new FakeStdout();
    const instance = renderInk(repl.element, { stdout: stdout.asStream(), stdin: new FakeStdin().asStream(), exitOnCtrlC: false, patchConsole: false });
    try {
      runtime.events.emit(agent({ type: 'turn_end', stopReason: 'end_turn', usage, text: 'A finished turn, printed once.', model: 'm' }));
      // From carol, who has no row in the team panel: the line is in the transcript only.
      runtime.events.emit({ type: 'message', envelope: { type: 'message', id: '01hzzzzzzz0000abcdef', from: 'carol', to: 'lead', timestamp: new Date().toISOString(), text: 'Report: done', summary: 'Report' } });
      runtime.events.emit(agent({ type: 'turn_start', call: 2 }));
      // Five batches, each waited for on screen: the live area is written at least five times. The
      // turn grows far taller than the 40-row screen: the live area must still show only its end.
      for (let batch = 0; batch < 5; batch++) {
        for (let i = 0; i < 200; i++) runtime.events.emit(agent({ type: 'text_delta', text: `t${batch * 200 + i} ` }));
        const last = `t${batch * 200 + 199}`;
        await waitFor(() => plain(stdout.written).includes(last) || undefined, `${last} on screen`);
      }
      const written = plain(stdout.written);
      assert.equal(occurrences(written, 'A finished turn, printed once.'), 1);
      assert.equal(occurrences(written, 'Report: done'), 1);
    } finally {
      instance.unmount();
    }
  });
});
