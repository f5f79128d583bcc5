import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { isProcessAlive } from '../../src/lib/file-lock.js';
import { SESSION_STORES, TeamSession } from './session.js';

after(killAll);

/** Approve every permission alice asks for until the run ends. */
async function approvePermissions(session: TeamSession, count: number): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < count; i++) {
    const request = await session.pending('permission', seen);
    seen.push(request.request_id);
    const result = await session.cli(['approve', request.request_id]);
    assert.equal(result.code, 0, result.stderr);
  }
}

for (const store of SESSION_STORES) describe(`plan approval, end to end (${store} store)`, () => {
  test('plan approved: the teammate works, reports, shuts down; the run exits and leaves no process', async (t) => {
    const session = await TeamSession.start({ store });
    t.after(() => session.cleanup());
    const plan = await session.pending('plan');
    assert.equal(plan.from, 'alice');
    const alice = await session.memberStatus('alice', 'awaiting_approval');
    assert.ok(alice.pid);
    // Plan mode is enforced by the harness: nothing is written before the approval.
    assert.equal(existsSync(join(session.paths.workspace, 'notes.md')), false);

    const approved = await session.cli(['approve', plan.request_id, '--feedback', 'go ahead']);
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(approved.stdout, new RegExp(`approved ${plan.request_id}`));
    await approvePermissions(session, 2);

    const exit = await session.exited();
    assert.equal(exit.code, 0, session.lead.stderr());
    assert.match(readFileSync(join(session.paths.workspace, 'notes.md'), 'utf8'), /build cache/);
    assert.equal((await session.member('alice'))?.status, 'shutdown');
    await waitFor(() => !isProcessAlive(alice.pid ?? 0), 'alice to be gone');
    // The decision alice acted on was the lead's, signed; the audit log has the whole story.
    const kinds = (await session.audit()).flatMap((e) => (e.event === 'message' ? [e.type] : []));
    for (const kind of ['task_assignment', 'plan_approval_request', 'plan_approval_response', 'permission_request', 'permission_response', 'shutdown_request', 'shutdown_response', 'task_notification']) {
      assert.ok(kinds.includes(kind as never), `audit has a ${kind}`);
    }
    const types = session.events().map((e) => e.type);
    assert.ok(types.includes('approval_needed'));
    assert.ok(types.includes('teammate_exit'));
  });

  // On Redis, the main path of each kind only: this variant adds nothing store-specific, and CI time counts.
  if (store === 'file') test('plan rejected with feedback, revised, then approved', async (t) => {
    const session = await TeamSession.start({ store });
    t.after(() => session.cleanup());
    const first = await session.pending('plan');
    const rejected = await session.cli(['reject', first.request_id, '--reason', 'Keep the cache; only write the notes']);
    assert.equal(rejected.code, 0, rejected.stderr);

    const second = await session.pending('plan', [first.request_id]);
    assert.notEqual(second.request_id, first.request_id);
    assert.match(second.summary, /Keep the cache; only write the notes/);
    assert.equal((await session.requests()).find((r) => r.request_id === first.request_id)?.state, 'rejected');
    // Still in plan mode after a rejection: nothing written yet.
    assert.equal(existsSync(join(session.paths.workspace, 'notes.md')), false);

    assert.equal((await session.cli(['approve', second.request_id])).code, 0);
    await approvePermissions(session, 2);
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    assert.ok(existsSync(join(session.paths.workspace, 'notes.md')));
  });
});

describe('the token budget, end to end', () => {
  test('once the team has spent its budget, no new model turn starts and the run ends', async (t) => {
    const session = await TeamSession.start({ extraArgs: ['--token-budget', '1500'] });
    t.after(() => session.cleanup());
    // The lead's first turn spends more than 1,500 tokens (its prompt alone does), so alice's first turn is refused.
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    const errors = session.events().filter((e) => e.type === 'agent' && JSON.stringify(e).includes('token budget is spent'));
    assert.ok(errors.length > 0, 'the lead reports the spent budget');
    assert.equal((await session.requests()).filter((r) => r.kind === 'plan').length, 0, 'alice never got to plan');
    assert.match((await session.cli(['status'])).stdout, /lead\s+lead\s+shutdown.*offline-demo\s+\d+ tokens, \$0\.0000/);
  });
});
