import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { TeamSession } from './session.js';

after(killAll);

/**
 * alice reports mid-turn (so her idle notification will carry no summary), then waits for
 * the human's permission. The lead notes her message and goes idle for good; once the human
 * approves, alice finishes and goes idle: that idle notification is the last thing to happen.
 */
const REPORT_THEN_WAIT_FOR_PERMISSION = [
  {
    name: 'lead: spawn alice without a plan step',
    when: { agent: 'lead', turn: 1 },
    reply: { tool_uses: [{ name: 'spawn_teammate', input: { name: 'alice', role: 'coder', prompt: '{{last}}', plan_mode: false } }] },
  },
  {
    name: 'alice: report progress first',
    when: { agent: 'teammate', turn: 1 },
    reply: { tool_uses: [{ name: 'send_message', input: { to: 'lead', content: 'Update: clearing the build cache now.' } }] },
  },
  {
    name: 'alice: then clear the cache (needs permission)',
    when: { agent: 'teammate', after_tool: 'send_message' },
    reply: { tool_uses: [{ name: 'bash', input: { command: 'rm -rf build/cache' } }] },
  },
  { name: 'alice: end the turn without another message', when: { agent: 'teammate', after_tool: 'bash' }, reply: { text: 'Cache cleared.' } },
];

type JsonEvent = ReturnType<TeamSession['events']>[number];

function isLeadIdle(event: JsonEvent): boolean {
  return event.type === 'agent' && (event.event as { type?: string }).type === 'idle';
}

function envelopeOf(event: JsonEvent): { type?: string; from?: string; summary?: string } | undefined {
  return event.type === 'message' ? (event.envelope as { type?: string; from?: string; summary?: string }) : undefined;
}

describe('teams run exits once the work is done', () => {
  test('a teammate\'s last idle notification, without a summary, arriving after the lead\'s last turn ended', async (t) => {
    const session = await TeamSession.start({ prompt: 'Clear the build cache', extraRules: REPORT_THEN_WAIT_FOR_PERMISSION });
    t.after(() => session.cleanup());
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    void session.exited().then((e) => (exit = e));

    const request = await session.pending('permission');
    assert.equal(request.from, 'alice');
    // The lead's turn on alice's update has ended: it has no turn left to take.
    await waitFor(() => {
      const events = session.events();
      const update = events.findIndex((e) => envelopeOf(e)?.type === 'message' && envelopeOf(e)?.from === 'alice');
      return update >= 0 && events.slice(update).some(isLeadIdle);
    }, 'the lead to go idle after alice\'s update');
    const approved = await session.cli(['approve', request.request_id]);
    assert.equal(approved.code, 0, approved.stderr);

    // Generous: once alice is idle the run needs only the shutdown handshake.
    const { code } = await waitFor(() => exit, 'teams run to exit after alice\'s last idle notification', 30_000).catch((error: Error) => {
      throw new Error(`${error.message}; its last output:\n${session.lead.stdout().slice(-1500)}`);
    });
    assert.equal(code, 0, session.lead.stderr());

    // The scenario held: alice's idle notification had no summary and came after the lead's last idle.
    const events = session.events();
    const idleNotification = events.findIndex((e) => envelopeOf(e)?.type === 'idle_notification' && envelopeOf(e)?.from === 'alice');
    assert.ok(idleNotification >= 0, 'alice sent an idle notification');
    assert.equal(events.map(envelopeOf)[idleNotification]?.summary, undefined);
    assert.ok(events.findLastIndex(isLeadIdle) < idleNotification, 'the lead took no turn after alice\'s idle notification');
  });
});
