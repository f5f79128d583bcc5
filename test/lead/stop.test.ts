import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { isProcessAlive } from '../../src/lib/file-lock.js';
import { killAll } from '../helpers/children.js';
import { startOfflineLead } from '../helpers/lead.js';
import { waitFor } from '../helpers/wait.js';

after(killAll);

test('stopping the lead: the teammates\' shutdown replies are shown but start no model turn', async () => {
  const { runtime, store, cleanup } = await startOfflineLead('teams-lead-stop-');
  const seen: string[] = [];
  let stopping = false;
  const turnsWhileStopping: number[] = [];
  runtime.events.subscribe((event) => {
    if (event.type === 'message') seen.push(event.envelope.type);
    if (stopping && event.type === 'agent' && event.event.type === 'turn_start') turnsWhileStopping.push(event.event.call);
  });
  try {
    await runtime.submit({ op: 'prompt', text: 'Write a short note about our build cache' });
    await waitFor(async () => (await runtime.decisions.pendingForHuman()).find((r) => r.kind === 'plan'), 'alice\'s plan in the queue', 20_000);
    await runtime.loop.idle();
    const alice = (await store.roster.load())?.members.find((m) => m.name === 'alice')?.pid;
    assert.ok(alice);
    stopping = true;
    await runtime.stop('the human is leaving');
    assert.ok(seen.includes('shutdown_response'), `alice answered the shutdown request; messages: ${seen.join(', ')}`);
    assert.deepEqual(turnsWhileStopping, []);
    assert.equal(isProcessAlive(alice), false);
  } finally {
    await runtime.stop();
    cleanup();
  }
});
