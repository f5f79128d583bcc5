import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StoreClock } from '../../src/store/clock.js';
import { TeamBus } from '../../src/team/bus.js';
import { deadlineAt } from '../../src/protocol/index.js';
import { respawnsInPlanMode } from '../../src/lead/respawn.js';
import type { RequestRecord } from '../../src/protocol/index.js';
import { storeOf } from '../helpers/store.js';
import { tempHome } from '../helpers/temp.js';

const MINUTE = 60_000;

/** A store whose clock reads `storeMs()`. */
function storeAt(storeMs: () => number): { now(): Promise<Date> } {
  return { now: async () => new Date(storeMs()) };
}

test('a process whose own clock is ten minutes fast stamps on the store clock', async () => {
  const truth = Date.now();
  const fast = new StoreClock(storeAt(() => truth), () => truth + 10 * MINUTE);
  const slow = new StoreClock(storeAt(() => truth), () => truth - 3 * MINUTE);
  assert.equal(fast.nowMs(), truth + 10 * MINUTE, 'before a sync, the local clock is all it has');
  await fast.sync();
  await slow.sync();
  assert.equal(fast.nowMs(), truth);
  assert.equal(slow.nowMs(), truth);
});

test('the offset is taken at the middle of the round trip', async () => {
  let local = 1_000_000;
  // The store answers 5 s into a 10 s round trip, when the store clock reads 2,000,000.
  const clock = new StoreClock({ now: async () => { local += 10_000; return new Date(2_000_000); } }, () => local);
  await clock.sync();
  assert.equal(clock.nowMs(), 2_000_000 + 5_000);
});

test('with skewed machines, "approved since plan mode" and deadlines compare on one clock', async () => {
  const truth = Date.now();
  const store = storeAt(() => truth);
  // The lead's machine runs 10 minutes ahead; the teammate's 10 minutes behind.
  const leadLocal = () => truth + 10 * MINUTE;
  let teammateNow = truth - 10 * MINUTE;
  const teammateLocal = () => teammateNow;
  const ordered = (lead: StoreClock, teammate: StoreClock) => {
    const since = lead.stamp();
    teammateNow += 1_000; // it sends its plan a second later
    const created_at = teammate.stamp();
    const plan: RequestRecord = {
      request_id: 'plan-1', kind: 'plan', from: 'alice', to: 'lead', state: 'approved', summary: 's',
      created_at, deadline_at: deadlineAt('permission', created_at), decided_at: created_at, decided_by: 'human',
    };
    return {
      replansOnRespawn: respawnsInPlanMode({ name: 'alice', plan_mode_since: since }, [plan]),
      overdueAtOnce: Date.parse(plan.deadline_at) <= lead.nowMs(),
    };
  };
  // Each on its own clock: the approved plan reads as 20 minutes older than plan mode, and a
  // fresh permission request as overdue the moment it is made.
  assert.deepEqual(ordered(new StoreClock(store, leadLocal), new StoreClock(store, teammateLocal)), { replansOnRespawn: true, overdueAtOnce: true });
  teammateNow = truth - 10 * MINUTE;
  const lead = new StoreClock(store, leadLocal);
  const teammate = new StoreClock(store, teammateLocal);
  await lead.sync();
  await teammate.sync();
  assert.deepEqual(ordered(lead, teammate), { replansOnRespawn: false, overdueAtOnce: false });
});

test('a bus stamps what it records on its clock', async () => {
  const temp = tempHome('teams-clock-');
  const store = storeOf(temp.home, 'skew');
  try {
    await store.roster.ensure();
    const clock = new StoreClock(storeAt(() => Date.parse('2030-01-01T00:00:00.000Z')), Date.now);
    await clock.sync();
    const record = await new TeamBus(store, undefined, clock).openOwnRequest('permission', 'run a command');
    assert.ok(record.created_at.startsWith('2030-01-01T00:00:0'), record.created_at);
  } finally {
    await store.close();
    temp.cleanup();
  }
});
