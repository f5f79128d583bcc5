import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { killAll } from '../helpers/children.js';
import { startOfflineLead } from '../helpers/lead.js';
import { waitFor } from '../helpers/wait.js';

after(killAll);

test('/resume through the real lead: after /clear, the lead goes back to its first session, whose journal it goes on writing', async () => {
  const { runtime, store, cleanup } = await startOfflineLead('teams-resume-op-');
  try {
    const first = runtime.session.id;
    const words = () => JSON.stringify(runtime.loop.conversation.messages);
    await runtime.submit({ op: 'prompt', text: 'REMEMBER-HERON' });
    await waitFor(() => (!runtime.loop.busy && words().includes('REMEMBER-HERON')) || undefined, 'the first turn done');
    await waitFor(async () => (await store.sessions.read(first, 'lead')).entries.length >= 2 || undefined, 'the first session journaled');
    const cleared = await runtime.submit({ op: 'clear' });
    assert.ok(cleared.op === 'clear' && cleared.session !== first);
    assert.doesNotMatch(words(), /REMEMBER-HERON/);
    await assert.rejects(runtime.submit({ op: 'resume', session: 'session-zzzzzzzzzz' }), /no session 'session-zzzzzzzzzz'/);
    const before = (await store.sessions.read(first, 'lead')).entries.length;
    const resumed = await runtime.submit({ op: 'resume', session: first });
    assert.match(resumed.message, new RegExp(`the lead goes on with session ${first} \\(${before} records\\)`));
    assert.match(words(), /REMEMBER-HERON/);
    await runtime.submit({ op: 'prompt', text: 'AND-THEN-OWL' });
    await waitFor(async () => JSON.stringify((await store.sessions.read(first, 'lead')).entries).includes('AND-THEN-OWL') || undefined, 'the new prompt journaled in the resumed session');
  } finally {
    await runtime.submit({ op: 'quit' });
    cleanup();
  }
});
