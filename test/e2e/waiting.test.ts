import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { TeamSession } from './session.js';

after(killAll);

/**
 * A model that does not wait when told to: after submitting its plan it claims the work is
 * done, and would do so again on every call. The loop, not the model, makes it wait.
 */
const IMPATIENT: unknown[] = [
  {
    name: 'alice starts once the plan is approved',
    when: { agent: 'alice', last: 'Your plan was approved' },
    reply: { text: 'Approved; writing now.' },
  },
  {
    name: 'alice does not wait: she tells the lead the work is done',
    when: { agent: 'alice', after_tool: 'plan_approval_request' },
    reply: { tool_uses: [{ name: 'send_message', input: { to: 'lead', content: 'IMPATIENT: all done, notes.md is written' } }] },
  },
];

/** alice's loop events, from her log. */
function events(session: TeamSession): { type: string; reason?: string }[] {
  let text = '';
  try {
    text = readFileSync(join(session.paths.root, 'logs', 'alice.log'), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { type: string; reason?: string });
}

describe('a turn that waits for a decision', () => {
  test('after submitting a plan the teammate makes no model call until the decision comes', async (t) => {
    const session = await TeamSession.start({ extraRules: IMPATIENT });
    t.after(() => session.cleanup());
    const plan = await session.pending('plan');
    await session.memberStatus('alice', 'awaiting_approval');
    // Her turn ended where the plan went out: the idle that says so is in her log.
    await waitFor(() => events(session).some((e) => e.type === 'idle' && e.reason === 'waiting'), "alice's turn to end waiting");
    const callsWhileWaiting = events(session).filter((e) => e.type === 'turn_start').length;
    // Nothing can start another call but news: a message to the lead would show in the audit.
    const claimed = (await session.audit()).filter((e) => e.event === 'message' && e.from === 'alice' && JSON.stringify(e).includes('IMPATIENT'));
    assert.deepEqual(claimed, [], 'she claimed work that never happened');

    assert.equal((await session.cli(['approve', plan.request_id])).code, 0);
    await waitFor(() => events(session).filter((e) => e.type === 'turn_start').length > callsWhileWaiting, 'her next call, after the approval');
    process.kill(session.lead.pid, 'SIGTERM');
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
  });
});
