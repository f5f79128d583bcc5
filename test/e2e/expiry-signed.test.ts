import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { killAll } from '../helpers/children.js';
import { startCli } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { TeamSession } from './session.js';

after(killAll);

const PLAN_DEADLINE_MS = 4_000;

/** Whether alice's model said `text` (her events are logged as JSON lines). */
function aliceSaid(session: TeamSession, text: string): boolean {
  try {
    return readFileSync(join(session.paths.root, 'logs', 'alice.log'), 'utf8').includes(JSON.stringify(text).slice(1, -1));
  } catch {
    return false;
  }
}

/**
 * Whether a process has a socket open beyond its stdio (which Node's pipes make sockets too):
 * `teams requests` connected to the lead's control socket.
 */
function hasSocket(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      if (Number(fd) <= 2) return false;
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:');
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/**
 * Expiry writes a decision, and a teammate believes only decisions signed with the lead's key.
 * `teams requests` sweeps overdue requests; run while a lead runs, it must have the lead do it,
 * or the teammate refuses the unsigned expiry and waits for ever.
 */
describe('a decision with no key stalls its teammate', () => {
  test('`teams requests` run while the plan deadline passes: the expiry alice gets is signed, and she moves on', async (t) => {
    const session = await TeamSession.start({
      deadlinesMs: { plan: PLAN_DEADLINE_MS },
      extraRules: [{ name: 'alice hears her plan expired', when: { agent: 'alice', last: 'No decision came in time' }, reply: { text: 'Noted: my plan expired.' } }],
    });
    t.after(() => session.cleanup());
    const plan = await session.pending('plan');
    await session.memberStatus('alice', 'awaiting_approval');
    const deadline = Date.parse(plan.deadline_at);

    // Make the race certain: the lead cannot sweep on its own timer while it is stopped, so the
    // first process to see the request overdue is `teams requests`.
    process.kill(session.lead.pid, 'SIGSTOP');
    let stopped = true;
    t.after(() => {
      if (stopped) process.kill(session.lead.pid, 'SIGCONT');
    });
    assert.equal((await session.requests()).find((r) => r.request_id === plan.request_id)?.state, 'pending', 'the lead had not expired it yet');
    await waitFor(() => Date.now() > deadline + 100, 'the plan deadline to pass', PLAN_DEADLINE_MS + 5_000);
    const listing = startCli(session.home, ['requests']);
    // It either asks the lead (and waits for its answer) or, wrongly, sweeps by itself.
    await waitFor(() => listing.process.exitCode !== null || hasSocket(listing.pid), '`teams requests` to ask the lead or to finish');
    process.kill(session.lead.pid, 'SIGCONT');
    stopped = false;
    assert.equal((await listing.exited).code, 0, listing.stderr());

    // And again, repeatedly, until alice has moved on or refused something.
    const refusals = async () => (await session.audit()).filter((e) => e.event === 'problem' && e.agent === 'alice');
    const movedOn = async () => (await session.member('alice'))?.status !== 'awaiting_approval' && aliceSaid(session, 'Noted: my plan expired.');
    await waitFor(
      async () => {
        const again = await session.cli(['requests']);
        assert.equal(again.code, 0, again.stderr);
        // Once she has answered, the run may end by itself and shut her down: any status but waiting.
        return (await movedOn()) || (await refusals()).length > 0;
      },
      `alice to leave awaiting_approval (is ${(await session.member('alice'))?.status})`,
      15_000,
    );
    assert.deepEqual(await refusals(), [], 'alice refused the expiry');
    assert.ok(await movedOn(), 'alice heard her plan expired and left awaiting_approval');

    const record = (await session.requests()).find((r) => r.request_id === plan.request_id);
    assert.equal(record?.state, 'expired');
    assert.deepEqual((await session.audit()).filter((e) => e.event === 'problem'), [], 'nobody refused anything');
    const expiry = (await session.audit()).find((e) => e.event === 'message' && e.type === 'plan_approval_response' && e.to === 'alice');
    assert.ok(expiry, 'the expiry went to alice');
    await stopLead(session);
  });
});

/** SIGTERM the lead unless it already ended by itself, and expect a clean exit. */
async function stopLead(session: TeamSession): Promise<void> {
  if (session.lead.process.exitCode === null && session.lead.process.signalCode === null) process.kill(session.lead.pid, 'SIGTERM');
  assert.equal((await session.exited()).code, 0, session.lead.stderr());
}
