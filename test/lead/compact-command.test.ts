import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LeadEvent } from '../../src/lead/events.js';
import { killAll } from '../helpers/children.js';
import { startOfflineLead } from '../helpers/lead.js';
import { waitFor } from '../helpers/wait.js';

after(killAll);

test('/compact: the lead compacts its own conversation, and a teammate its own when told over IPC; both are shown and audited', async () => {
  const { runtime, store, cleanup } = await startOfflineLead('teams-compact-');
  const events: LeadEvent[] = [];
  runtime.events.subscribe((event) => events.push(event));
  try {
    await runtime.submit({ op: 'prompt', text: 'Write a short note about our build cache' });
    // alice has submitted her plan and waits, idle, for the human's decision.
    const plan = await waitFor(async () => (await runtime.decisions.pendingForHuman()).find((r) => r.kind === 'plan'), "alice's plan in the queue", 20_000);
    await runtime.loop.idle();

    await runtime.submit({ op: 'compact', name: 'alice' });
    const told = await waitFor(() => events.find((e) => e.type === 'teammate_compacted'), 'alice to report her compaction', 20_000);
    assert.equal(told.type === 'teammate_compacted' && told.name, 'alice');
    assert.equal(told.type === 'teammate_compacted' && told.reason, 'manual');

    await runtime.submit({ op: 'compact' });
    const own = await waitFor(() => events.find((e) => e.type === 'agent' && e.event.type === 'compacted'), 'the lead to compact', 20_000);
    // A conversation this short grows by its summary: the figures say so rather than pretend.
    assert.ok(own.type === 'agent' && own.event.type === 'compacted' && own.event.reason === 'manual' && own.event.before > 0 && own.event.after > 0);
    // A compaction while idle is no turn: the lead neither started one nor went idle again for it.
    assert.equal(events.slice(events.indexOf(own)).some((e) => e.type === 'agent' && (e.event.type === 'turn_start' || e.event.type === 'idle')), false);
    assert.match(JSON.stringify(runtime.loop.messages[0]), /Summary of earlier work[\s\S]*Requests pending:[\s\S]*plan request from alice/);

    const audited = await waitFor(async () => {
      const entries = (await store.audit.read()).entries.flatMap((e) => (e.event === 'compacted' ? [e.agent] : []));
      return entries.length === 2 ? entries.sort() : undefined;
    }, 'both compactions in the audit log');
    assert.deepEqual(audited, ['alice', 'lead']);
    await assert.rejects(runtime.submit({ op: 'compact', name: 'nobody' }), /no member named 'nobody'/);

    // Still a working team: alice goes on once her plan is approved.
    await runtime.decisions.decide(plan.request_id, { approve: true });
    await waitFor(async () => (await runtime.decisions.pendingForHuman()).find((r) => r.kind === 'permission'), "alice's next step after the compaction", 20_000);
  } finally {
    await runtime.stop();
    cleanup();
  }
});
