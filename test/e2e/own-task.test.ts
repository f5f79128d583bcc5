import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { TeamSession } from './session.js';

after(killAll);

describe("a teammate's own task, end to end (offline demo)", () => {
  test('the demo closes its spawn task: completed by alice with her report, and still completed after she shut down and the run ended', async (t) => {
    const session = await TeamSession.start();
    t.after(() => session.cleanup());
    await session.approveDemo();
    await session.memberStatus('alice', 'shutdown');
    const closed = await session.store.tasks.get('1');
    assert.deepEqual([closed?.status, closed?.owner], ['completed', 'alice'], JSON.stringify(closed));
    assert.match(closed?.result ?? '', /^Report: done\. I wrote notes\.md/);
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    // The shutdown sent nothing back to pending: the board shows the demo's work as done.
    assert.deepEqual((await session.store.tasks.list()).map((task) => [task.id, task.status, task.owner]), [['1', 'completed', 'alice']]);
    const turns = session.events().filter((e) => e.type === 'agent' && JSON.stringify(e.event).includes('"type":"turn_end"'));
    assert.equal(turns.filter((e) => JSON.stringify(e.event).includes('That was the whole demo')).length, 1, 'the closing words are said once');
  });

  test('a teammate shut down before closing its task has it kept for it; a respawn gives it back under the same id, with no new task', async (t) => {
    const session = await TeamSession.start({
      extraRules: [
        // The lead waits in a model call that never ends, so the run stays up for the respawn.
        { name: 'lead: hold on once alice is gone', when: { agent: 'lead', last: 'agreed to shut down' }, reply: { text: 'Waiting for the human', stall_after_deltas: 1 } },
        { name: 'alice: respawned', when: { agent: 'alice', last: '\\[task_assignment (?<id>[0-9]+) from lead\\][\\s\\S]*Your own task [0-9]+ is given back to you' }, reply: { text: 'Back on my own task {{last.id}}.' } },
      ],
    });
    t.after(() => session.cleanup());
    await session.pending('plan');
    await session.memberStatus('alice', 'awaiting_approval');
    assert.equal((await session.cli(['shutdown', 'alice'])).code, 0);
    await session.memberStatus('alice', 'shutdown');
    const kept = await waitFor(async () => {
      const task = await session.store.tasks.get('1');
      return task?.status === 'pending' ? task : undefined;
    }, 'her own task to go back to pending');
    assert.equal(kept.owner, 'alice', 'kept for her, not free for anyone');
    assert.match(kept.notes?.at(-1)?.text ?? '', /back to pending, kept for alice$/);

    const respawned = await session.cli(['respawn', 'alice']);
    assert.equal(respawned.code, 0, `${respawned.stderr}; lead: ${session.lead.stdout().slice(-2000)}`);
    const mine = await session.store.tasks.get('1');
    assert.deepEqual([mine?.status, mine?.owner], ['in_progress', 'alice']);
    assert.equal((await session.store.tasks.list()).length, 1, 'no new task for the respawn');
    await waitFor(
      async () => (await session.cli(['logs', 'alice'])).stdout.match(/Back on my own task 1\./),
      `the respawned alice to take up task 1; lead: ${session.lead.stdout().slice(-1500)}`,
    );
    process.kill(session.lead.pid, 'SIGTERM');
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
  });
});
