import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { killAll } from '../helpers/children.js';
import { startOfflineLead } from '../helpers/lead.js';
import { waitFor } from '../helpers/wait.js';

after(killAll);

test('a teammate spawned before /clear is respawned with its conversation, which goes on in the session its journal is in', async () => {
  const { runtime, store, cleanup } = await startOfflineLead('teams-respawn-after-clear-');
  try {
    const first = runtime.session.id;
    await runtime.submit({ op: 'spawn', name: 'bob', role: 'notes', prompt: 'Wait for news.', plan_mode: false });
    const member = async () => (await store.roster.load())?.members.find((m) => m.name === 'bob');
    assert.equal((await member())?.session, first, 'the roster says where its conversation is journaled');
    await waitFor(async () => (await store.sessions.read(first, 'bob')).entries.length >= 2 || undefined, "bob's first turn journaled");
    const bob = await waitFor(async () => (await member())?.pid ?? undefined, "bob's pid on the roster");

    // The lead moves on to a new session; bob's conversation stays in the first.
    const cleared = await runtime.submit({ op: 'clear' });
    assert.ok(cleared.op === 'clear' && cleared.session !== first);
    process.kill(bob, 'SIGKILL');
    await waitFor(async () => (await member())?.status === 'crashed' || undefined, 'bob marked crashed');

    const before = (await store.sessions.read(first, 'bob')).entries.length;
    const respawned = await runtime.submit({ op: 'respawn', name: 'bob' });
    assert.match(respawned.message, /^respawned bob \(pid \d+\) with its conversation/);
    await waitFor(async () => (await store.sessions.read(first, 'bob')).entries.length > before || undefined, 'the respawned bob journaling on in the first session');
    assert.deepEqual(await store.sessions.read(cleared.session, 'bob'), { entries: [], problems: [] }, 'nothing of bob in the new session');
    assert.equal((await member())?.session, first);
  } finally {
    await runtime.submit({ op: 'quit' });
    cleanup();
  }
});
