import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConversationRecord } from '../../src/agent/conversation.js';
import { journalSink, openConversation, sessionSpending } from '../../src/agent/session-journal.js';
import { Conversation } from '../../src/agent/conversation.js';
import { appendFile } from 'node:fs/promises';
import { filesOf, storeOf } from '../helpers/store.js';
import { teamPaths } from '../../src/team/paths.js';
import { join } from 'node:path';
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

  test("what each agent spent in a session is summed from its journal's records, each call priced as the model that answered it", async () => {
    const turn = { input_tokens: 100, output_tokens: 20, cache_read_tokens: 1000, cache_write_tokens: 10 };
    const carol = new Conversation({ sink: journalSink(store.sessions, ID, 'carol') });
    carol.appendUser([{ type: 'text', text: 'Go' }]);
    carol.appendAssistant([{ type: 'text', text: 'Done' }], { model: 'claude-sonnet-5-5', usage: turn });
    carol.replace([{ role: 'user', content: 'Summary' }], { model: 'claude-haiku-4-5', usage: turn });
    // A record from before usage was recorded counts nothing; an unreadable line is left out.
    carol.appendAssistant([{ type: 'text', text: 'Older' }]);
    await carol.settled();
    await appendFile(join(filesOf(teamPaths(temp.home, 'default')).sessions, ID, 'carol.jsonl'), '{"at":"2026-01-0\n');
    const spending = await sessionSpending(store.sessions, ID, ['carol', 'nobody']);
    assert.deepEqual(Object.keys(spending), ['carol'], 'an agent with no journal in the session is left out');
    assert.deepEqual(spending.carol?.usage, { input_tokens: 200, output_tokens: 40, cache_read_tokens: 2000, cache_write_tokens: 20 });
    const sonnet = (100 * 2 + 20 * 10 + 1000 * 0.1 + 10 * 2.5) / 1e6;
    const haiku = (100 * 1 + 20 * 5 + 1000 * 0.1 + 10 * 1.25) / 1e6;
    assert.ok(Math.abs((spending.carol?.cost ?? NaN) - (sonnet + haiku)) < 1e-12);
    const dave = new Conversation({ sink: journalSink(store.sessions, ID, 'dave') });
    dave.appendAssistant([], { model: 'claude-unknown-9', usage: turn });
    await dave.settled();
    assert.equal((await sessionSpending(store.sessions, ID, ['dave'])).dave?.cost, undefined, 'a model without a known price: no cost rather than a partial one');
  });
});
