import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LeadEvent } from '../../src/lead/events.js';
import { killAll } from '../helpers/children.js';
import { startOfflineLead } from '../helpers/lead.js';
import { waitFor } from '../helpers/wait.js';

after(killAll);

test('/compact on conversations too short to gain: the lead and a teammate told over IPC each skip it and say why, and change nothing (a compaction that happens is tested in e2e/compaction)', async () => {
  const { runtime, store, cleanup } = await startOfflineLead('teams-compact-');
  const events: LeadEvent[] = [];
  runtime.events.subscribe((event) => events.push(event));
  try {
    await runtime.submit({ op: 'prompt', text: 'Write a short note about our build cache' });
    // alice has submitted her plan and waits, idle, for the human's decision.
    const plan = await waitFor(async () => (await runtime.decisions.pendingForHuman()).find((r) => r.kind === 'plan'), "alice's plan in the queue", 20_000);
    await runtime.loop.idle();

    // Summaries of pasts this short would be longer than what they replace: skipped, said, nothing changed.
    const skipped = /^compaction skipped: the summary would (make the conversation \d+% larger|save only -?\d+%) \(it must save at least 20%\)/;
    await runtime.submit({ op: 'compact', name: 'alice' });
    await waitFor(async () => JSON.stringify((await store.agentLogs.read('alice')).lines).includes('compaction skipped') || undefined, 'alice to log the compaction she skipped', 20_000);
    const logged = (await store.agentLogs.read('alice')).lines.find((line) => JSON.stringify(line).includes('compaction skipped'));
    assert.match(JSON.stringify(logged), /compaction skipped: the summary would/);

    const before = JSON.stringify(runtime.loop.messages);
    const leadInput = async () => (await store.roster.load())?.members.find((m) => m.name === 'lead')?.usage?.input_tokens ?? 0;
    const inputBefore = await leadInput();
    await runtime.submit({ op: 'compact' });
    const own = await waitFor(() => events.find((e) => e.type === 'agent' && e.event.type === 'compaction_skipped'), 'the lead to skip its compaction', 20_000);
    const ownSkip = own.type === 'agent' && own.event.type === 'compaction_skipped' ? own.event : undefined;
    assert.match(ownSkip?.message ?? '', skipped);
    // The summary it made and did not use still cost tokens: they are on the lead's roster totals.
    const summaryInput = ownSkip?.usage.input_tokens ?? 0;
    assert.ok(summaryInput > 0);
    await waitFor(async () => (await leadInput()) >= inputBefore + summaryInput || undefined, "the skipped summary's tokens on the lead's roster totals");
    assert.equal(JSON.stringify(runtime.loop.messages), before);
    assert.equal(events.some((e) => e.type === 'teammate_compacted' || (e.type === 'agent' && e.event.type === 'compacted')), false);
    assert.equal((await store.audit.read()).entries.some((e) => e.event === 'compacted'), false, 'nothing compacted, nothing audited as compacted');
    await assert.rejects(runtime.submit({ op: 'compact', name: 'nobody' }), /no member named 'nobody'/);

    // Still a working team: alice goes on once her plan is approved.
    await runtime.decisions.decide(plan.request_id, { approve: true });
    await waitFor(async () => (await runtime.decisions.pendingForHuman()).find((r) => r.kind === 'permission'), "alice's next step after the compaction", 20_000);
  } finally {
    await runtime.stop();
    cleanup();
  }
});
