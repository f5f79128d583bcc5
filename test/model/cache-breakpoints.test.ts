import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { withConversationBreakpoints } from '../../src/model/cache-breakpoints.js';

const MARK = { type: 'ephemeral' };

/** A loop's conversation after two calls: question, reply with a tool call, its result. */
function conversation(): MessageParam[] {
  return [
    { role: 'user', content: 'Summarise the notes.' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Read them first.', signature: 'sig' },
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'notes.md' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'The notes.' }] },
  ];
}

/** [message index, block index] of every marked block. */
function marks(messages: readonly MessageParam[]): [number, number][] {
  return messages.flatMap((message, m) =>
    typeof message.content === 'string' ? [] : message.content.flatMap((block, b): [number, number][] => ('cache_control' in block && block.cache_control ? [[m, b]] : [])),
  );
}

test('marks the latest block and the end of the previous call, leaving the caller’s messages as they were', () => {
  const messages = conversation();
  const before = structuredClone(messages);
  const marked = withConversationBreakpoints(messages, 2);
  assert.deepEqual(messages, before, 'the caller’s messages are not changed');
  assert.deepEqual(marks(marked), [[0, 0], [2, 0]]);
  // The string the previous call ended with became the one text block it stands for.
  assert.deepEqual(marked[0], { role: 'user', content: [{ type: 'text', text: 'Summarise the notes.', cache_control: MARK }] });
  assert.equal(marked[1], messages[1], 'unmarked messages are passed as they are');
});

test('a budget of one marks only the latest block, and none marks nothing', () => {
  assert.deepEqual(marks(withConversationBreakpoints(conversation(), 1)), [[2, 0]]);
  assert.deepEqual(marks(withConversationBreakpoints(conversation(), 0)), []);
});

test('blocks that cannot carry a breakpoint (thinking, empty text) are passed over for the last one that can', () => {
  const messages: MessageParam[] = [
    { role: 'user', content: 'Go on.' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Thinking it over.' },
        { type: 'text', text: '' },
        { type: 'redacted_thinking', data: 'xyz' },
        { type: 'thinking', thinking: 'Done.', signature: 'sig' },
      ],
    },
  ];
  assert.deepEqual(marks(withConversationBreakpoints(messages, 1)), [[1, 0]]);
  const nothing: MessageParam[] = [
    { role: 'user', content: 'Go on.' },
    { role: 'assistant', content: [{ type: 'thinking', thinking: 'Only this.', signature: 'sig' }] },
  ];
  assert.deepEqual(withConversationBreakpoints(nothing, 1)[0], { role: 'user', content: [{ type: 'text', text: 'Go on.', cache_control: MARK }] }, 'an earlier message takes it');
});

test('a first call has no previous call to mark', () => {
  const marked = withConversationBreakpoints([{ role: 'user', content: 'Hello.' }], 2);
  assert.deepEqual(marked, [{ role: 'user', content: [{ type: 'text', text: 'Hello.', cache_control: MARK }] }]);
});
