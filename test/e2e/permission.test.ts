import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killAll } from '../helpers/children.js';
import { SESSION_STORES, TeamSession } from './session.js';

after(killAll);

for (const store of SESSION_STORES) describe(`permission requests, end to end (${store} store)`, () => {
  test('one permission denied, another approved: the denied call never runs', async (t) => {
    const session = await TeamSession.start({ store });
    t.after(() => session.cleanup());
    const plan = await session.pending('plan');
    assert.equal((await session.cli(['approve', plan.request_id])).code, 0);

    const write = await session.pending('permission');
    assert.match(write.summary, /^write_file/);
    const denied = await session.cli(['reject', write.request_id, '--reason', 'no notes file, please']);
    assert.equal(denied.code, 0, denied.stderr);

    const remove = await session.pending('permission', [write.request_id]);
    assert.match(remove.summary, /rm -rf build\/cache/);
    assert.match(remove.summary, /recursive delete/);
    mkdirSync(join(session.paths.workspace, 'build', 'cache'), { recursive: true });
    writeFileSync(join(session.paths.workspace, 'build', 'cache', 'stale.o'), 'x');
    assert.equal((await session.cli(['approve', remove.request_id])).code, 0);

    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    assert.equal(existsSync(join(session.paths.workspace, 'notes.md')), false, 'the denied write never ran');
    assert.equal(existsSync(join(session.paths.workspace, 'build', 'cache')), false, 'the approved delete ran');
    const states = Object.fromEntries((await session.requests()).map((r) => [r.request_id, r.state]));
    assert.equal(states[write.request_id], 'rejected');
    assert.equal(states[remove.request_id], 'approved');
  });

  // Kept on Redis: the deadline is stamped by one process and enforced by another (the store's clock).
  test('a permission nobody answers is denied at its deadline', async (t) => {
    const session = await TeamSession.start({ store, deadlinesMs: { permission: 400 } });
    t.after(() => session.cleanup());
    const plan = await session.pending('plan');
    assert.equal((await session.cli(['approve', plan.request_id])).code, 0);
    const write = await session.pending('permission');
    // Nobody answers: the lead's deadline timer expires it, and alice hears "denied".
    await session.pending('permission', [write.request_id]);
    const late = await session.cli(['approve', write.request_id]);
    assert.equal(late.code, 2);
    assert.match(late.stderr, /expired/);
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    const expired = (await session.requests()).filter((r) => r.kind === 'permission');
    assert.deepEqual(expired.map((r) => r.state), ['expired', 'expired']);
    assert.equal(existsSync(join(session.paths.workspace, 'notes.md')), false);
  });
});
