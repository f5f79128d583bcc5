import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { processStartTime } from '../../src/lib/index.js';
import { HOST_STALE_MS, aliveMembers, describeMemberProcess, memberIsAlive } from '../../src/store/member-liveness.js';
import type { Member } from '../../src/store/roster.js';

type Liveness = Pick<Member, 'pid' | 'pid_start' | 'host'>;

const NOW = new Date('2026-12-04T10:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

/** A process that has exited and been reaped: its pid names nothing now (until the kernel reuses it). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not start a process');
  await once(child, 'exit');
  return pid;
}

describe('memberIsAlive: one liveness check for every member', () => {
  const here = { pid: process.pid, pid_start: processStartTime(process.pid) };

  test('a member on this machine is alive while its pid runs with the start time recorded', () => {
    assert.ok(here.pid_start !== undefined, 'procfs gives this process a start time');
    assert.equal(memberIsAlive(here), true);
    assert.equal(memberIsAlive({ pid: process.pid }), true, 'with no start time recorded, the pid alone decides');
  });

  test('a member with no pid, or whose pid is gone, is not alive', async () => {
    assert.equal(memberIsAlive({ pid: null }), false);
    assert.equal(memberIsAlive({ pid: await deadPid() }), false);
  });

  test('a pid reused by a process that started at another time is not the member', () => {
    assert.equal(memberIsAlive({ pid: process.pid, pid_start: `${here.pid_start}0` }), false);
  });

  test("a member on another host is alive only while that host's beat is fresh, by the store's clock", () => {
    const member: Liveness = { pid: process.pid, pid_start: here.pid_start, host: 'build' };
    const fresh = { hosts: new Map([['build', { last_beat: ago(1_000) }]]), now: NOW };
    const edge = { hosts: new Map([['build', { last_beat: ago(HOST_STALE_MS) }]]), now: NOW };
    const stale = { hosts: new Map([['build', { last_beat: ago(HOST_STALE_MS + 1) }]]), now: NOW };
    const ahead = { hosts: new Map([['build', { last_beat: new Date(NOW.getTime() + 50).toISOString() }]]), now: NOW };
    assert.equal(memberIsAlive(member, fresh), true);
    assert.equal(memberIsAlive(member, edge), true, 'within 3 s');
    assert.equal(memberIsAlive(member, stale), false, 'a host silent for more than 3 s runs nothing we know of');
    assert.equal(memberIsAlive(member, ahead), true, 'a beat stamped just after `now` was read is fresh');
  });

  test("a remote member's pid is never checked here: without its host's beat it is not alive, whatever runs under that pid", () => {
    const member: Liveness = { pid: process.pid, pid_start: here.pid_start, host: 'build' };
    assert.equal(memberIsAlive(member), false, 'no heartbeat information');
    assert.equal(memberIsAlive(member, { hosts: new Map([['gpu', { last_beat: ago(0) }]]), now: NOW }), false, 'another host beats, not its own');
    assert.equal(memberIsAlive(member, { hosts: new Map([['build', { last_beat: ago(0) }]]) }), false, 'a beat with no clock to judge it by');
    assert.equal(memberIsAlive({ ...member, pid: null }, { hosts: new Map([['build', { last_beat: ago(0) }]]), now: NOW }), false, 'no process recorded on a live host');
  });

  test('a member on the host this machine goes by is checked by its pid here', async () => {
    assert.equal(memberIsAlive({ ...here, host: 'build' }, { here: 'build' }), true);
    assert.equal(memberIsAlive({ pid: await deadPid(), host: 'build' }, { here: 'build' }), false);
  });

  test('aliveMembers names the members alive, and a stand-in process check is used in place of procfs', () => {
    const at = '2026-12-04T09:00:00.000Z';
    const member = (name: string, pid: number | null, host?: string): Member => ({
      name, role: 'coder', status: 'working', pid, model: null, created_at: at, status_since: at, ...(host === undefined ? {} : { host }),
    });
    const members = [member('alice', 100), member('bob', 200), member('carol', 100, 'build'), member('dave', null)];
    const view = { processRunning: (pid: number) => pid === 100, hosts: new Map([['build', { last_beat: ago(10) }]]), now: NOW };
    assert.deepEqual([...aliveMembers(members, view)], ['alice', 'carol']);
  });

  test("a member's process is named with its machine when that is not this one", () => {
    assert.equal(describeMemberProcess({ pid: 4242 }), 'pid 4242');
    assert.equal(describeMemberProcess({ pid: 4242, host: 'build' }), "pid 4242 on host 'build'");
    assert.equal(describeMemberProcess({ pid: null, host: 'build' }), 'no pid yet');
  });
});
