import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConversationRecord } from '../../src/agent/conversation.js';
import { stateFor } from '../../src/ui/app.js';
import { resumedItems } from '../../src/ui/state/resumed.js';
import { FakeRuntime } from './fake-runtime.js';

const records: ConversationRecord[] = [
  { type: 'user', content: [{ type: 'text', text: 'Split the parser work' }] },
  {
    type: 'assistant',
    content: [
      { type: 'text', text: 'Starting alice.' },
      { type: 'tool_use', id: 'toolu_1', name: 'spawn_teammate', input: { name: 'alice', role: 'coder' } },
    ],
  },
  {
    type: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Spawned alice (coder, pid 42).', is_error: false },
      { type: 'text', text: '[message from alice] Report: the parser is split' },
    ],
  },
  { type: 'assistant', content: [{ type: 'text', text: 'Alice is done.' }] },
];

describe('a resumed session in the REPL', () => {
  test("its records become the transcript's lines: prompts, the lead's words, tool calls with results, notices", () => {
    assert.deepEqual(resumedItems('session-0123456789', records), [
      { kind: 'info', text: 'resumed session session-0123456789; its conversation so far:' },
      { kind: 'user', text: 'Split the parser work' },
      { kind: 'lead', text: 'Starting alice.', interrupted: false },
      { kind: 'tool', name: 'spawn_teammate', input: 'name=alice role=coder', result: 'Spawned alice (coder, pid 42).', isError: false },
      { kind: 'info', text: '[message from alice] Report: the parser is split' },
      { kind: 'lead', text: 'Alice is done.', interrupted: false },
      { kind: 'info', text: 'the session goes on from here' },
    ]);
  });

  test('a compacted conversation shows what the model sees: the replacement, then what followed', () => {
    const compacted: ConversationRecord[] = [
      ...records,
      { type: 'replaced', messages: [{ role: 'user', content: 'Summary: alice split the parser.' }, { role: 'assistant', content: [{ type: 'text', text: 'Understood.' }] }] },
      { type: 'user', content: [{ type: 'text', text: 'Now the tests' }] },
    ];
    assert.deepEqual(resumedItems('session-0123456789', compacted).map((item) => item.kind === 'info' ? 'info' : `${item.kind}: ${'text' in item ? item.text : ''}`), [
      'info',
      'user: Summary: alice split the parser.',
      'lead: Understood.',
      'user: Now the tests',
      'info',
    ]);
  });

  test("the REPL's first state opens with them, then the lines that were set aside", async () => {
    const runtime = new FakeRuntime();
    assert.deepEqual((await stateFor(runtime, 0)).transcript, [], 'a new session starts empty');
    runtime.session = { id: 'session-0123456789', resumed: true, earlier: records, problems: [{ ref: '/t/lead.jsonl line 9', reason: 'not valid JSON (torn or corrupt line)' }], recovered: [], spent: {}, notices: [] };
    const transcript = (await stateFor(runtime, 0)).transcript;
    assert.equal(transcript.length, 8);
    assert.deepEqual(transcript.at(-1), { id: 8, kind: 'error', text: 'set aside /t/lead.jsonl line 9: not valid JSON (torn or corrupt line)' });
    assert.deepEqual(transcript.map((item) => item.id), [1, 2, 3, 4, 5, 6, 7, 8]);
  });

  test('what the lead put right of an earlier lead\'s leftovers opens the transcript, resumed or not', async () => {
    const runtime = new FakeRuntime();
    const recovered = ['alice was working, but its process (pid 4242) ended with the earlier lead: marked crashed'];
    runtime.session = { id: 'session-0123456789', resumed: false, earlier: [], problems: [], recovered, spent: {}, notices: [] };
    assert.deepEqual((await stateFor(runtime, 0)).transcript, [{ id: 1, kind: 'error', text: recovered[0] }]);
    runtime.session = { ...runtime.session, resumed: true, earlier: records };
    assert.deepEqual((await stateFor(runtime, 0)).transcript.at(-1), { id: 8, kind: 'error', text: recovered[0] }, 'after the earlier conversation');
  });
});
