import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { TeamSession } from './session.js';

after(killAll);

describe('teams logs on a real teammate', () => {
  test("alice's tool calls with their results and her status changes, as she works", async (t) => {
    const session = await TeamSession.start();
    t.after(() => session.cleanup());
    let last = '';
    const logs = async () => {
      const result = await session.cli(['logs', 'alice']);
      assert.equal(result.code, 0, result.stderr);
      return (last = result.stdout);
    };
    // In plan mode, she submits her plan and waits for the human's decision.
    const plan = await session.pending('plan');
    await session.memberStatus('alice', 'awaiting_approval');
    const waiting = await waitFor(async () => {
      const text = await logs();
      return text.includes('· alice is awaiting_approval') ? text : undefined;
    }, 'her wait to show in her log').catch((error: unknown) => assert.fail(`${String(error)}; her log:\n${last}`));
    assert.match(waiting, /^⚙ plan_approval_request \{"plan":"1\. Read the task.* → Plan submitted \(request plan-/m);
    assert.match(waiting, /^· alice is working$/m);

    assert.equal((await session.cli(['approve', plan.request_id])).code, 0);
    // Writing needs the human's permission: while it is asked, the call shows as running.
    const write = await session.pending('permission');
    assert.match(await logs(), /^⚙ write_file \{"path":"notes\.md".* … running$/m);
    assert.equal((await session.cli(['approve', write.request_id])).code, 0);
    const working = await waitFor(async () => {
      const text = await logs();
      return /^⚙ write_file \{"path":"notes\.md".* → \S/m.test(text) ? text : undefined;
    }, 'her write_file call and its result in her log').catch((error: unknown) => assert.fail(`${String(error)}; her log:\n${last}`));
    // Her own words come whole, one block each, in order around the calls.
    assert.ok(working.indexOf('Plan approved. Step 1: writing notes.md.') < working.indexOf('⚙ write_file'), working);
    process.kill(session.lead.pid, 'SIGTERM');
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
  });
});
