import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup as cleanupInk } from 'ink-testing-library';
import { resolveModelSettings } from '../../src/model/settings.js';
import { LeadRuntime } from '../../src/lead/lead.js';
import { isProcessAlive } from '../../src/lib/file-lock.js';
import { openFileStore } from '../../src/store/file/file-store.js';
import { teamPaths } from '../../src/team/paths.js';
import type { RequestRecord } from '../../src/protocol/request-records.js';
import { killAll } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { KEYS } from './terminal.js';
import { renderLiveRepl } from './live-repl.js';

after(killAll);

describe('the keyboard approval flow, against a real lead runtime (offline model)', () => {
  const { home, cleanup } = tempHome('teams-ui-flow-');
  const paths = teamPaths(home, 'default');
  const team = openFileStore(paths);
  let runtime: LeadRuntime | undefined;

  after(async () => {
    cleanupInk();
    await runtime?.stop();
    // Belt and braces: whatever teammate is still on the roster with a pid is ended.
    for (const m of (await team.roster.load())?.members ?? []) {
      if (m.name !== 'lead' && m.pid && isProcessAlive(m.pid)) process.kill(-m.pid, 'SIGKILL');
    }
    cleanup();
  });

  test('reject a plan with a reason, approve the revision, a permission decided elsewhere leaves at once, deny one, quit', async () => {
    await team.roster.ensure();
    mkdirSync(paths.workspace, { recursive: true });
    runtime = await LeadRuntime.start({ store: team, paths, settings: resolveModelSettings({ offline: true }, {}), cwd: paths.workspace, permissionMode: 'default', planReviewer: 'human', graceMs: 3000 });
    const { store, controller, disconnect, screen, type, text } = await renderLiveRepl(runtime);
    const decided = (id: string, state: RequestRecord['state']) => async () => (await team.requests.get(id))?.state === state;
    const queued = (kind: RequestRecord['kind'], seen: string[] = []) =>
      waitFor(() => store.getState().queue.find((r) => r.kind === kind && !seen.includes(r.request_id)), `a ${kind} request in the queue; screen:\n${screen()}`, 20_000);
    const focus = (f: string) => waitFor(() => store.getState().focus === f || undefined, `focus on ${f}`);
    // Tab from the input line. The queue is read again after each decision, and alice may be
    // asking the next thing by then: the queue then keeps the focus, and Tab would leave it.
    const toQueue = async () => {
      if (store.getState().focus !== 'queue') type(KEYS.tab);
      await focus('queue');
    };

    try {
      assert.match(screen(), /model offline-demo \(scripted offline demo model, not Claude\)/);
      text('Write a short note about our build cache');
      type(KEYS.enter);

      // 1. The plan is visible without a command; Tab, n, a reason, Enter rejects it.
      const plan = await queued('plan');
      await waitFor(() => screen().includes('Approvals (1)') || undefined, 'the queue on screen');
      await toQueue();
      type('n');
      await focus('reason');
      text('Keep the cache; only write the notes');
      type(KEYS.enter);
      await waitFor(decided(plan.request_id, 'rejected'), 'the plan rejected in the store');
      assert.equal((await team.requests.get(plan.request_id))?.note, 'Keep the cache; only write the notes');

      // 2. The revision comes back; y approves it.
      const revised = await queued('plan', [plan.request_id]);
      assert.match(revised.summary, /Keep the cache; only write the notes/);
      await toQueue();
      type('y');
      await waitFor(decided(revised.request_id, 'approved'), 'the revision approved');

      // 3. A permission decided elsewhere leaves the queue at once, reason input and all.
      const write = await queued('permission');
      await toQueue();
      type('n');
      await focus('reason');
      await runtime.decisions.decide(write.request_id, { approve: true, note: 'from another terminal' });
      assert.equal(store.getState().queue.some((r) => r.request_id === write.request_id), false, 'gone as soon as the decision is made');
      assert.equal(store.getState().reason, undefined, 'its reason input with it');
      // The queue is read again after the decision: alice, quick as she is, may already be asking
      // the next thing, and then the queue keeps the focus.
      assert.equal(store.getState().focus, store.getState().queue.length === 0 ? 'input' : 'queue');
      assert.ok(store.getState().transcript.some((i) => i.kind === 'info' && i.text === `${write.request_id} was decided elsewhere; nothing was sent`));
      await waitFor(() => screen().includes(`${write.request_id} was decided elsewhere`) || undefined, 'the screen to say so');

      // 4. The risky command: denied with a reason; the lead then winds alice down.
      const remove = await queued('permission', [write.request_id]);
      assert.match(remove.summary, /rm -rf build\/cache/);
      await toQueue();
      type('v');
      // What it will do: the command and why it asks, read by the controller from the request's tool call.
      await waitFor(() => (screen().includes(`permission request ${remove.request_id} from alice, what it will do:`) && screen().includes('$ rm -rf build/cache')) || undefined, `the command's preview; screen:\n${screen()}`);
      assert.match(screen(), /asks because: .*recursive/);
      type('n');
      await focus('reason');
      text('not today');
      type(KEYS.enter);
      await waitFor(decided(remove.request_id, 'rejected'), 'the command denied');
      // The queue is read again from the store after a decision: it empties a moment after the journal says so.
      await waitFor(() => store.getState().queue.length === 0 || undefined, 'the queue to be empty');
      const alicePid = (await team.roster.load())?.members.find((m) => m.name === 'alice')?.pid;
      assert.ok(alicePid);
      await waitFor(() => screen().includes('alice exited (code 0)') || undefined, `alice to exit; screen:\n${screen()}`, 20_000);
      assert.ok(existsSync(join(paths.workspace, 'notes.md')), 'the write approved elsewhere ran');
      assert.match(screen(), /\[alice\] task completed: Task 1 "Write a short note about our build cache" completed \(alice\)/);

      // 5. /quit stops the team; nothing is left.
      text('/quit');
      type(KEYS.enter);
      await controller.done;
      assert.equal(store.getState().phase, 'stopped');
      assert.equal(isProcessAlive(alicePid), false);
      assert.equal((await team.roster.load())?.members.find((m) => m.name === 'lead')?.status, 'shutdown');
    } finally {
      disconnect();
    }
  });
});
