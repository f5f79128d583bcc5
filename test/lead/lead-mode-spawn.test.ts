import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { killAll } from '../helpers/children.js';
import { startOfflineLead } from '../helpers/lead.js';
import { waitFor } from '../helpers/wait.js';

after(killAll);

const modeOf = async (store: Awaited<ReturnType<typeof startOfflineLead>>['store'], name: string) => (await store.roster.load())?.members.find((m) => m.name === name)?.permission_mode;

test("spawns and plan approvals follow the lead's mode as it is now (Shift+Tab), not the one it started in", async () => {
  const { runtime, store, cleanup } = await startOfflineLead('teams-lead-mode-spawn-');
  try {
    // Started in default; the human moves the lead to accept-edits, as Shift+Tab does.
    await runtime.submit({ op: 'lead_mode', mode: 'accept-edits' });
    // A spawn that names no mode gets the lead's.
    await runtime.submit({ op: 'spawn', name: 'bob', role: 'notes', prompt: 'Wait for news.', plan_mode: false });
    assert.equal(await modeOf(store, 'bob'), 'accept-edits');
    // The demo's lead spawns alice in plan mode; the plan approved lets her work in the lead's mode now.
    await runtime.submit({ op: 'prompt', text: 'Write a short note about our build cache' });
    const plan = await waitFor(async () => (await runtime.decisions.pendingForHuman()).find((r) => r.kind === 'plan'), "alice's plan in the queue", 20_000);
    assert.equal(await modeOf(store, 'alice'), 'plan');
    await runtime.decisions.decide(plan.request_id, { approve: true });
    await waitFor(async () => (await modeOf(store, 'alice')) === 'accept-edits' || undefined, "alice in the lead's mode once her plan is approved", 20_000);
  } finally {
    await runtime.submit({ op: 'quit' });
    cleanup();
  }
});
