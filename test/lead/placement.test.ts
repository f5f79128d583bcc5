import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { Refused } from '../../src/lib/index.js';
import { processStartTime } from '../../src/lib/proc-start.js';
import { addMember } from '../../src/store/roster-changes.js';
import { killAll } from '../helpers/children.js';
import { startOfflineLead } from '../helpers/lead.js';

after(killAll);

test("where a teammate runs: here unless placed; a host not attached, or a worktree on a host, is refused before anything is written; a respawn goes back to the recorded host", async () => {
  const { runtime, store, cleanup } = await startOfflineLead('teams-placement-');
  try {
    const member = async (name: string) => (await store.roster.load())?.members.find((m) => m.name === name);
    await assert.rejects(
      runtime.teammates.spawn({ name: 'bob', role: 'coder', prompt: 'wait', planMode: false, host: 'build' }),
      (error: unknown) => error instanceof Refused && error.message === "cannot start bob: no host 'build' is attached (none is)",
    );
    await assert.rejects(
      runtime.teammates.spawn({ name: 'bob', role: 'coder', prompt: 'wait', planMode: false, host: 'build', isolation: 'worktree' }),
      (error: unknown) => error instanceof Refused && error.message === "cannot start bob on host 'build' in a worktree: worktrees are made on the lead's machine only",
    );
    assert.equal(await member('bob'), undefined, 'not on the roster');
    assert.deepEqual(await store.tasks.list(), [], 'no task made for it');

    // Here: no host recorded, and the pid with the start time its (local) spawner read.
    const { pid } = await runtime.teammates.spawn({ name: 'alice', role: 'coder', prompt: 'wait', planMode: false });
    const alice = await member('alice');
    assert.equal(alice?.host, undefined);
    assert.equal(alice?.pid, pid);
    assert.equal(alice?.pid_start, processStartTime(pid));

    // Recorded on a host, crashed there: its respawn goes back to that host, which is not attached.
    await addMember(store.roster, { name: 'carol', role: 'coder', status: 'crashed', host: 'build' });
    await assert.rejects(
      runtime.teammates.respawn('carol'),
      (error: unknown) => error instanceof Refused && error.message === "cannot respawn carol on host 'build', where it ran: no host 'build' is attached (none is)",
    );
    assert.equal((await member('carol'))?.status, 'crashed', 'nothing changed');
  } finally {
    await runtime.stop();
    await store.close();
    cleanup();
  }
});
