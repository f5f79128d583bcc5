import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { leftBehind, recoverFromEarlierLead } from '../../src/lead/recovery.js';
import type { ProcessCheck } from '../../src/store/member-liveness.js';
import { newRequestId } from '../../src/protocol/ids.js';
import { addMember } from '../../src/store/roster-changes.js';
import { MEMBER_STATUSES, type Member, type MemberStatus } from '../../src/store/roster.js';
import { TeamBus } from '../../src/team/bus.js';
import type { RequestRecord } from '../../src/protocol/request-records.js';
import { storeOf } from '../helpers/store.js';
import { tempHome } from '../helpers/temp.js';

const AT = '2026-12-03T10:00:00.000Z';

function member(name: string, status: MemberStatus, pid: number | null, pid_start?: string): Member {
  return { name, role: name === 'lead' ? 'lead' : 'coder', status, pid, ...(pid_start === undefined ? {} : { pid_start }), model: null, created_at: AT, status_since: AT };
}

function pending(kind: RequestRecord['kind'], from: string, to: string): RequestRecord {
  return { request_id: newRequestId(kind), kind, from, to, created_at: AT, deadline_at: '2026-12-03T10:05:00.000Z', state: 'pending', summary: 'something to decide' };
}

/** Processes 100 (started at tick 7) and 200 run; nothing else does. */
const running: ProcessCheck = (pid, start) => (pid === 100 && (start === undefined || start === '7')) || pid === 200;

describe('what an earlier lead left behind (pure)', () => {
  test('a teammate whose status says it runs but whose process is gone is stale; the lead never is', () => {
    const members = [
      member('lead', 'working', 999),
      member('alice', 'awaiting_approval', 300),
      member('bob', 'working', 100, '7'),
      member('carol', 'starting', null),
      member('dave', 'shutting_down', 200),
      member('erin', 'idle', 100, '8'),
    ];
    const { stale } = leftBehind(members, [], { processRunning: running });
    assert.deepEqual(stale.map((m) => m.name), ['alice', 'carol', 'erin'], 'erin: pid 100 now belongs to a process that started later');
  });

  test('every status a running process holds, and only those, can be stale', () => {
    const members = MEMBER_STATUSES.map((status) => member(`m-${status.replace(/_/g, '-')}`, status, 300));
    const { stale } = leftBehind([member('lead', 'idle', null), ...members], [], { processRunning: running });
    assert.deepEqual(stale.map((m) => m.status), ['starting', 'working', 'idle', 'awaiting_approval', 'shutting_down']);
  });

  test('pending requests: the earlier lead\'s own, and those naming a teammate not running (stopped, stale or removed)', () => {
    const members = [member('lead', 'idle', null), member('alice', 'awaiting_approval', 300), member('bob', 'shutdown', null), member('carol', 'working', 100, '7')];
    const own = pending('permission', 'lead', 'lead');
    const requests = [
      pending('plan', 'alice', 'lead'),
      own,
      pending('permission', 'bob', 'lead'),
      pending('shutdown', 'lead', 'carol'),
      pending('review', 'carol', 'zed'),
    ];
    const left = leftBehind(members, requests, { processRunning: running });
    assert.deepEqual(left.gone, ['alice', 'bob', 'zed'], 'carol runs: her requests stand, except with zed, who is gone');
    assert.deepEqual(left.leadRequests, [own]);
  });
});

describe('recoverFromEarlierLead, against a real store', () => {
  const temp = tempHome('teams-recovery-');
  after(() => temp.cleanup());

  test('marks the stale crashed with no pid, cancels what nobody waits for, audits each, and says so', async () => {
    const store = storeOf(temp.home);
    await store.roster.ensure();
    await addMember(store.roster, { name: 'alice', role: 'coder', status: 'awaiting_approval', pid: 300 });
    await addMember(store.roster, { name: 'bob', role: 'coder', status: 'working', pid: 100 });
    const plan = await store.requests.open(pending('plan', 'alice', 'lead'));
    const own = await store.requests.open(pending('permission', 'lead', 'lead'));
    const bobs = await store.requests.open(pending('permission', 'bob', 'lead'));
    const lines = await recoverFromEarlierLead(store, new TeamBus(store), { processRunning: (pid) => pid === 100 });

    assert.deepEqual(lines, [
      'alice was awaiting_approval, but its process (pid 300) ended with the earlier lead: marked crashed',
      `cancelled the pending requests of alice, whose process is gone: ${plan.request_id}`,
      `cancelled the earlier lead's own pending requests, as the lead that asked is gone: ${own.request_id}`,
    ]);
    const members = (await store.roster.load())?.members ?? [];
    assert.deepEqual(members.map((m) => [m.name, m.status, m.pid]), [['lead', 'registered', null], ['alice', 'crashed', null], ['bob', 'working', 100]]);
    const state = async (id: string) => (await store.requests.get(id))?.state;
    assert.equal(await state(plan.request_id), 'cancelled');
    assert.equal(await state(own.request_id), 'cancelled');
    assert.equal(await state(bobs.request_id), 'pending', 'bob still runs');
    assert.match((await store.requests.get(plan.request_id))?.note ?? '', /alice's process is gone/);
    assert.match((await store.requests.get(own.request_id))?.note ?? '', /the lead that asked is gone/);

    const audit = (await store.audit.read()).entries;
    assert.ok(audit.some((e) => e.event === 'member' && e.name === 'alice' && /awaiting_approval → crashed: its process \(pid 300\) was gone/.test(e.change)));
    const cancelled = audit.flatMap((e) => (e.event === 'request' && e.to_state === 'cancelled' ? [e.request_id] : []));
    assert.deepEqual(cancelled, [plan.request_id, own.request_id]);

    assert.deepEqual(await recoverFromEarlierLead(store, new TeamBus(store), { processRunning: (pid) => pid === 100 }), [], 'nothing is left the second time');
  });
});
