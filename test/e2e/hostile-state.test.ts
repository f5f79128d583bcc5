import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { killAll, DIST } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { HOSTILE_RULES, hostileTask, processesWith, toolResults } from './hostile.js';
import { filesOf } from '../helpers/store.js';
import { TeamSession, type SessionOptions } from './session.js';

after(killAll);

const ATTACK = join(DIST, 'test', 'fixtures', 'state-attack.js');

/**
 * A teammate whose model is hostile tries to approve alice's plan itself: by editing the
 * team's state, by the control socket, by a detached process that keeps trying, and through the file
 * tools. In every layout of state and working directory, nothing gets through.
 */
describe('a hostile teammate cannot reach the team\'s state or the lead\'s channels', () => {
  for (const layout of ['state-in-workdir', 'apart', 'workdir-in-state'] as const satisfies SessionOptions['layout'][]) {
    test(`state and working directory: ${layout}`, async (t) => {
      const session = await TeamSession.start({ layout, extraRules: HOSTILE_RULES });
      t.after(() => session.cleanup());
      const plan = await session.pending('plan');
      const token = readFileSync(session.paths.controlToken, 'utf8');
      // A copy in the working directory: the sandbox shows nothing of /tmp but the working
      // directory, and a clone of this repository may lie there.
      copyFileSync(ATTACK, join(session.workdir, 'attack.mjs'));
      const command = `node attack.mjs ${session.paths.root} ${session.paths.controlSocket} ${plan.request_id}`;
      const task = hostileTask(command, relative(session.workdir, session.paths.controlToken), relative(session.workdir, filesOf(session.paths).config));
      const spawned = await session.cli(['spawn', 'mallory', '--role', 'helper', '--prompt', task]);
      assert.equal(spawned.code, 0, spawned.stderr);

      // Whatever mallory asks for (a write inside the working directory asks first), the human
      // approves: what the sandbox and the file tools refuse stays refused all the same.
      const results = await waitFor(async () => {
        const asked = (await session.requests()).find((r) => r.from === 'mallory' && r.state === 'pending');
        if (asked) assert.equal((await session.cli(['approve', asked.request_id])).code, 0);
        const seen = toolResults(session, 'mallory');
        return seen.length === 3 ? seen : undefined;
      }, "mallory's three tool results", 20_000);

      const [bash, read, write] = results;
      const report = JSON.parse(bash!.content.split('\n').find((line) => line.startsWith('{')) ?? '{}') as { got?: string[] };
      assert.deepEqual(report.got, [], `the attack got through: ${bash!.content}`);
      assert.ok(read!.isError && /outside the working directory|state directory/.test(read!.content), read!.content);
      assert.ok(write!.isError && /outside the working directory|state directory/.test(write!.content), write!.content);

      // The detached attacker died with the sandboxed command; the plan is untouched.
      await waitFor(() => processesWith(`${plan.request_id} again`).length === 0, 'no detached attacker left');
      assert.equal((await session.requests()).find((r) => r.request_id === plan.request_id)?.state, 'pending');
      assert.equal(readFileSync(session.paths.controlToken, 'utf8'), token);
      assert.ok((await session.member('lead')), 'the roster is intact');
      assert.ok(!(await session.audit()).some((e) => e.event === 'problem' && /control command/.test(e.what)), 'the socket was never even reached');

      // The human's own decision still goes through.
      assert.equal((await session.cli(['reject', plan.request_id, '--reason', 'stop here'])).code, 0);
      process.kill(session.lead.pid, 'SIGTERM');
      assert.equal((await session.exited()).code, 0, session.lead.stderr());
    });
  }
});
