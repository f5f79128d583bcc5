import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { processesWith, sleepers, sleepMarker, toolResults } from './hostile.js';
import { TeamSession } from './session.js';
import { replies, withIdleWorker, workerRules } from './worker.js';

after(killAll);

describe("the user's own voice and interrupts, end to end", () => {
  test('the user tells a teammate to run a long command, interrupts it (its group dies), and it waits; the note reaches its model with the next words', async (t) => {
    const marker = sleepMarker();
    t.after(() => {
      for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
    });
    const session = await TeamSession.start({ extraRules: workerRules(marker) });
    t.after(() => session.cleanup());
    await withIdleWorker(session);

    const told = await session.cli(['send', 'worker', 'run the long one', '--from', 'user']);
    assert.equal(told.code, 0, told.stderr);
    assert.match(told.stdout, /^sent \S+ to worker from the user$/m);
    await waitFor(() => sleepers(marker).length === 1, `the long command to run; worker: ${JSON.stringify(replies(session, 'worker'))}`, 20_000);
    await session.memberStatus('worker', 'working');

    const interrupted = await session.cli(['interrupt', 'worker']);
    assert.equal(interrupted.code, 0, interrupted.stderr);
    assert.match(interrupted.stdout, /^interrupted worker \(\S+\)$/m);
    await waitFor(() => processesWith(marker).length === 0, `the command's group to be gone (left: ${processesWith(marker).join(' ')})`, 10_000);
    await session.memberStatus('worker', 'idle');
    assert.match(toolResults(session, 'worker').find((r) => r.name === 'bash')?.content ?? '', /interrupted: the command and everything it started were killed/);
    // The lead hears it is idle, waiting for the user: nothing for the lead's model to act on.
    await waitFor(
      async () => (await session.audit()).some((e) => e.event === 'message' && e.from === 'worker' && e.type === 'idle_notification' && /interrupted by the user/.test(e.summary)),
      'the idle notification saying the user interrupted it',
    );

    // An interrupt while idle changes nothing; the user's next words start the next turn, with the note.
    assert.equal((await session.cli(['interrupt', 'worker'])).code, 0);
    assert.equal((await session.cli(['send', 'worker', 'carry on', '--from', 'user'])).code, 0);
    await waitFor(() => replies(session, 'worker').includes('RESUMED after the interrupt.'), `worker to resume; replies: ${JSON.stringify(replies(session, 'worker'))}`);
    // Ready, running, resumed: no turn started by itself in between.
    assert.deepEqual(replies(session, 'worker'), ['Ready when you are.', 'Running it.', 'RESUMED after the interrupt.']);
    // The note came once: the next words arrive without it.
    assert.equal((await session.cli(['send', 'worker', 'ping', '--from', 'user'])).code, 0);
    await waitFor(() => replies(session, 'worker').includes('PONG'), 'the ping answered');

    // Interrupted while it waits for a permission: the wait ends, the request leaves the queue, nothing is written.
    assert.equal((await session.cli(['send', 'worker', 'write the file', '--from', 'user'])).code, 0);
    const asked = await session.pending('permission');
    assert.equal(asked.from, 'worker');
    await session.memberStatus('worker', 'awaiting_approval');
    assert.equal((await session.cli(['interrupt', 'worker'])).code, 0);
    await session.memberStatus('worker', 'idle');
    assert.equal((await session.requests()).find((r) => r.request_id === asked.request_id)?.state, 'cancelled');
    assert.match(toolResults(session, 'worker').find((r) => r.name === 'write_file')?.content ?? '', /interrupted before a decision came/);
    assert.equal(existsSync(join(session.workdir, 'asked.md')), false);

    // People read it as the user's, relayed by the lead.
    const log = await session.cli(['log', '--agent', 'worker']);
    assert.match(log.stdout, /message\s+user \(via lead\) → worker \[user_message\] run the long one/);
    assert.match(log.stdout, /message\s+user \(via lead\) → worker \[interrupt\]/);
    assert.deepEqual(replies(session, 'worker'), ['Ready when you are.', 'Running it.', 'RESUMED after the interrupt.', 'PONG', 'Writing it.']);
    process.kill(session.lead.pid, 'SIGTERM');
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
  });
});
