import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConversationRecord } from '../../src/agent/conversation.js';
import { journalSink, openConversation } from '../../src/agent/session-journal.js';
import { storeOf } from '../helpers/store.js';
import { tempHome } from '../helpers/temp.js';

const ID = 'session-0123456789';
const asked: ConversationRecord = { type: 'user', content: [{ type: 'text', text: 'Read both files' }] };
const calls: ConversationRecord = {
  type: 'assistant',
  content: [
    { type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'a' } },
    { type: 'tool_use', id: 'toolu_b', name: 'read_file', input: { path: 'b' } },
  ],
};

describe("an agent's journaled conversation", () => {
  const temp = tempHome('teams-session-journal-');
  after(temp.cleanup);
  const store = storeOf(temp.home);
  const open = (agent: string, resume: boolean) =>
    openConversation({ sessions: store.sessions, id: ID, agent, resume, sink: journalSink(store.sessions, ID, agent), journalExists: true });

  test('resumed after a kill mid-tool: every unanswered tool call gets an interrupted result, journaled like any record', async () => {
    await store.roster.ensure();
    await store.sessions.create({ id: ID, started_at: new Date().toISOString(), first_prompt: 'Read both files' });
    for (const record of [asked, calls]) await store.sessions.append(ID, 'alice', record);
    const { conversation, earlier, problems } = await open('alice', true);
    await conversation.settled();
    assert.deepEqual(earlier, [asked, calls]);
    assert.deepEqual(problems, []);
    const closing = conversation.last;
    assert.equal(closing?.role, 'user');
    const ids = Array.isArray(closing?.content) ? closing.content.map((block) => (block.type === 'tool_result' ? [block.tool_use_id, block.is_error] : block.type)) : [];
    assert.deepEqual(ids, [['toolu_a', true], ['toolu_b', true]]);
    const journal = (await store.sessions.read(ID, 'alice')).entries.map((e) => e.record.type);
    assert.deepEqual(journal, ['user', 'assistant', 'user'], 'the results are in the journal before any model call');
    // Resumed again, nothing more is added: every call is answered now.
    await (await open('alice', true)).conversation.settled();
    assert.equal((await store.sessions.read(ID, 'alice')).entries.length, 3);
  });

  test('a fresh start under a name with a journal begins with an empty replacement, so a later resume replays only the new life', async () => {
    const { conversation } = await open('alice', false);
    assert.deepEqual(conversation.messages, []);
    conversation.appendUser([{ type: 'text', text: 'A new task' }]);
    await conversation.settled();
    const resumed = await open('alice', true);
    assert.deepEqual(resumed.conversation.messages, [{ role: 'user', content: [{ type: 'text', text: 'A new task' }] }]);
    const { conversation: first } = await open('bob', false);
    await first.settled();
    assert.deepEqual(await store.sessions.read(ID, 'bob'), { entries: [], problems: [] }, 'no journal yet: nothing to replace');
  });
});
