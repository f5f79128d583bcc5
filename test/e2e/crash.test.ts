import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { isProcessAlive } from '../../src/lib/file-lock.js';
import { SESSION_STORES, TeamSession } from './session.js';

after(killAll);

for (const store of SESSION_STORES) describe(`crashes, end to end (${store} store)`, () => {
  test('a teammate killed with SIGKILL: crashed, its requests cancelled, its own board task back to pending and kept for it, the lead told it failed by its id', async (t) => {
    const session = await TeamSession.start({ store });
    t.after(() => session.cleanup());
    const plan = await session.pending('plan');
    const alice = await session.memberStatus('alice', 'awaiting_approval');
    process.kill(alice.pid ?? 0, 'SIGKILL');

    await session.memberStatus('alice', 'crashed');
    assert.equal((await session.member('alice'))?.pid, null);
    await waitFor(async () => (await session.requests()).find((r) => r.request_id === plan.request_id && r.state === 'cancelled'), 'the plan request to be cancelled');
    const failed = await waitFor(
      () => session.events().find((e) => e.type === 'message' && JSON.stringify(e).includes('task_notification') && JSON.stringify(e).includes('failed')),
      'a failed task notification for the lead',
    );
    assert.match(JSON.stringify(failed), /killed by SIGKILL/);
    // Her own task is named by its board id, and is back to pending, still hers (a respawn gives it back), with a note.
    assert.equal((failed.envelope as { task_id: string }).task_id, '1');
    const task = await session.store.tasks.get('1');
    assert.deepEqual([task?.status, task?.owner, task?.notes?.[0]?.text], ['pending', 'alice', 'alice crashed (killed by SIGKILL) before closing it; back to pending, kept for alice']);
    // Told after the board's notification (the lead's order): waited for, not read at once.
    const exit = await waitFor(() => session.events().find((e) => e.type === 'teammate_exit'), "alice's exit event");
    assert.deepEqual({ name: exit?.name, crashed: exit?.crashed }, { name: 'alice', crashed: true });
    // Deciding a cancelled request is refused.
    const late = await session.cli(['approve', plan.request_id]);
    assert.equal(late.code, 2);
    assert.match(late.stderr, /cancelled/);
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
  });

  test('a lead killed with SIGKILL leaves no orphan: its teammate exits by itself', async (t) => {
    const session = await TeamSession.start({ store });
    t.after(() => session.cleanup());
    await session.pending('plan');
    const alice = await session.memberStatus('alice', 'awaiting_approval');
    assert.ok(alice.pid && isProcessAlive(alice.pid));
    process.kill(session.lead.pid, 'SIGKILL');
    assert.equal((await session.exited()).signal, 'SIGKILL');
    // The teammate notices through its IPC channel closing: well within the 5 s the issue allows.
    await waitFor(() => !isProcessAlive(alice.pid ?? 0), 'alice to exit after her lead died', 5_000);
  });
});
