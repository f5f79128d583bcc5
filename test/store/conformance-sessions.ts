import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionRecord } from '../../src/store/sessions.js';
import type { Kit } from './conformance.js';

const ID = 'session-0123456789';
const prompt: SessionRecord = { type: 'user', content: [{ type: 'text', text: 'Write the notes' }] };
const answer: SessionRecord = {
  type: 'assistant',
  content: [
    { type: 'text', text: 'On it.' },
    { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'notes.md' } },
  ],
  // What the call cost is read back with the record: the header's totals after --continue are summed from it.
  spent: { model: 'claude-sonnet-5-5', usage: { input_tokens: 120, output_tokens: 30, cache_read_tokens: 900, cache_write_tokens: 0 } },
};
const result: SessionRecord = { type: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'hello', is_error: false }] };
const compacted: SessionRecord = {
  type: 'replaced',
  messages: [{ role: 'user', content: 'Summary: notes written' }],
  spent: { model: 'claude-haiku-4-5', usage: { input_tokens: 2000, output_tokens: 200, cache_read_tokens: 0, cache_write_tokens: 0 } },
};

export function sessionCases(kit: Kit): void {
  test('sessions: a session is created once, its journals read back in order, per agent, by any opening', async () => {
    const { descriptor, store } = await kit.team();
    assert.deepEqual(await store.sessions.list(), { sessions: [], problems: [] });
    const meta = await store.sessions.create({ id: ID, started_at: '2026-01-02T03:04:05.000Z', first_prompt: 'Write the notes' });
    assert.deepEqual(meta, { id: ID, team: store.team, started_at: '2026-01-02T03:04:05.000Z', first_prompt: 'Write the notes' });
    await assert.rejects(store.sessions.create({ id: ID, started_at: '2026-01-02T03:04:06.000Z', first_prompt: '' }), /already exists/);
    for (const record of [prompt, answer, result, compacted]) await store.sessions.append(ID, 'lead', record);
    const elsewhere = await kit.reopen(descriptor);
    await elsewhere.sessions.append(ID, 'alice', prompt);
    const lead = await elsewhere.sessions.read(ID, 'lead');
    assert.deepEqual(lead.entries.map((e) => e.record), [prompt, answer, result, compacted]);
    assert.deepEqual(lead.problems, []);
    assert.deepEqual(await store.sessions.read(ID, 'bob'), { entries: [], problems: [] }, 'an agent with no journal has none');
    assert.deepEqual(await store.sessions.get(ID), meta);
    const { sessions, problems } = await store.sessions.list();
    assert.deepEqual(problems, []);
    assert.equal(sessions.length, 1);
    assert.deepEqual({ ...sessions[0], last_active: undefined }, {
      ...meta,
      last_active: undefined,
      agents: ['lead', 'alice'],
      records: 5,
      // Every journal's model calls, summed by the model that answered them.
      tokens_by_model: { 'claude-sonnet-5-5': answer.type === 'assistant' ? answer.spent?.usage : undefined, 'claude-haiku-4-5': compacted.type === 'replaced' ? compacted.spent?.usage : undefined },
    });
    assert.equal(sessions[0]?.last_active, (await store.sessions.read(ID, 'alice')).entries[0]?.at, 'the newest record, alice\'s');
  });

  test('sessions: appends to an unknown session, malformed records and ids are refused, nothing written', async () => {
    const { store } = await kit.team();
    await assert.rejects(store.sessions.append('session-zzzzzzzzzz', 'lead', prompt), /no session session-zzzzzzzzzz/);
    await assert.rejects(store.sessions.create({ id: '../escape', started_at: '2026-01-02T03:04:05.000Z', first_prompt: '' }), /not a session id/);
    assert.equal(await store.sessions.get('../escape'), undefined);
    assert.equal(await store.sessions.get('session-zzzzzzzzzz'), undefined);
    await store.sessions.create({ id: ID, started_at: '2026-01-02T03:04:05.000Z', first_prompt: '' });
    const broken = { type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file' }] } as const;
    await assert.rejects(store.sessions.append(ID, 'lead', broken), /input/);
    await assert.rejects(store.sessions.append(ID, 'Not A Name', prompt), /agent name/);
    assert.deepEqual(await store.sessions.read(ID, 'lead'), { entries: [], problems: [] });
  });

  test('sessions: listed oldest first', async () => {
    const { store } = await kit.team();
    await store.sessions.create({ id: 'session-bbbbbbbbbb', started_at: '2026-01-02T00:00:00.000Z', first_prompt: 'second' });
    await store.sessions.create({ id: 'session-aaaaaaaaaa', started_at: '2026-01-03T00:00:00.000Z', first_prompt: 'third' });
    await store.sessions.create({ id: 'session-cccccccccc', started_at: '2026-01-01T00:00:00.000Z', first_prompt: 'first' });
    assert.deepEqual((await store.sessions.list()).sessions.map((s) => s.first_prompt), ['first', 'second', 'third']);
  });
}
