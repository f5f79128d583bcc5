import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { isProcessAlive } from '../../src/lib/file-lock.js';
import { SESSION_STORES, TeamSession } from './session.js';

after(killAll);

for (const store of SESSION_STORES) describe(`shutdown, end to end (${store} store)`, () => {
  test('a teammate shut down while its plan waits leaves no pending request of its own: the plan is cancelled, and approving it says so (exit 2)', async (t) => {
    const session = await TeamSession.start({ store });
    t.after(() => session.cleanup());
    const plan = await session.pending('plan');
    await session.memberStatus('alice', 'awaiting_approval');
    assert.equal((await session.cli(['shutdown', 'alice'])).code, 0);
    await session.memberStatus('alice', 'shutdown');
    const cancelled = await waitFor(async () => (await session.requests()).find((r) => r.request_id === plan.request_id && r.state === 'cancelled'), 'her plan request to be cancelled');
    assert.match(cancelled.note ?? '', /alice exited/);
    const pending = await session.cli(['requests', '--state', 'pending', '--json']);
    assert.doesNotMatch(pending.stdout, new RegExp(plan.request_id));
    const late = await session.cli(['approve', plan.request_id]);
    assert.equal(late.code, 2);
    assert.match(late.stderr, /cancelled/);
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
  });

  test('a teammate refuses the lead\'s shutdown request with a reason and keeps running; the grace period ends it', async (t) => {
    const session = await TeamSession.start({
      store,
      graceMs: 500,
      extraRules: [
        {
          name: 'refuse to shut down',
          when: { agent: 'teammate', last: '\\[shutdown_request (?<id>[^\\s\\]]+) from' },
          reply: { tool_uses: [{ name: 'shutdown_response', input: { request_id: '{{last.id}}', approve: false, reason: 'still checking the notes' } }] },
        },
        { name: 'keep working', when: { agent: 'teammate', after_tool: 'shutdown_response' }, reply: { text: 'I keep working on the notes.' } },
      ],
    });
    t.after(() => session.cleanup());
    await session.approveDemo();
    const alice = await session.memberStatus('alice', 'idle');
    await waitFor(
      async () => (await session.requests()).find((r) => r.kind === 'shutdown' && r.state === 'rejected'),
      'the refused shutdown request',
    );
    const refusal = (await session.requests()).find((r) => r.kind === 'shutdown' && r.state === 'rejected');
    assert.equal(refusal?.note, 'still checking the notes');
    // The run asks again when it leaves; alice refuses again, so her process group is ended after the grace period.
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    await waitFor(() => !isProcessAlive(alice.pid ?? 0), 'alice to be ended');
    assert.equal((await session.member('alice'))?.status, 'shutdown');
  });

  test('a teammate asks to be ended; the human approves; it exits with its task completed', async (t) => {
    const session = await TeamSession.start({
      store,
      extraRules: [
        {
          name: 'ask to be ended instead of reporting',
          when: { agent: 'teammate', after_tool: 'bash' },
          reply: { tool_uses: [{ name: 'finish_request', input: { summary: 'notes written and the cache cleared' } }] },
        },
        { name: 'wait to be ended', when: { agent: 'teammate', after_tool: 'finish_request' }, reply: { text: 'Waiting for the lead to end me.' } },
      ],
    });
    t.after(() => session.cleanup());
    await session.approveDemo();
    const finish = await session.pending('finish');
    assert.equal(finish.from, 'alice');
    assert.equal(finish.summary, 'notes written and the cache cleared');
    await session.memberStatus('alice', 'awaiting_approval');
    assert.equal((await session.cli(['approve', finish.request_id])).code, 0);
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    const notification = (await session.audit()).find((e) => e.event === 'message' && e.type === 'task_notification');
    assert.ok(notification && notification.event === 'message');
    // The seed's summary line, naming the task the lead assigned.
    assert.equal(notification.summary, 'task completed: Agent "Write a short note about our build cache" completed');
  });

  // On Redis, the main path of each kind only: this variant adds nothing store-specific, and CI time counts.
  if (store === 'file') test('a request to be ended can be refused: the teammate is sent back with what to continue with', async (t) => {
    const session = await TeamSession.start({
      store,
      extraRules: [
        // The answer joins the request's tool result: the turn waited for it.
        { name: 'continue', when: { agent: 'teammate', last: 'The lead asks you to continue: (?<what>.*)' }, reply: { tool_uses: [{ name: 'send_message', input: { to: 'lead', content: 'Report: continuing with {{last.what}}' } }] } },
        { name: 'ask to be ended', when: { agent: 'teammate', after_tool: 'bash' }, times: 1, reply: { tool_uses: [{ name: 'finish_request', input: { summary: 'done' } }] } },
        { name: 'wait', when: { agent: 'teammate', after_tool: 'finish_request' }, reply: { text: 'Waiting.' } },
      ],
    });
    t.after(() => session.cleanup());
    await session.approveDemo();
    const finish = await session.pending('finish');
    assert.equal((await session.cli(['reject', finish.request_id, '--reason', 'also list the open questions'])).code, 0);
    await waitFor(
      async () => (await session.audit()).find((e) => e.event === 'message' && e.from === 'alice' && e.summary.includes('continuing with also list the open questions')),
      'alice to continue with the feedback',
    );
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
  });
});
