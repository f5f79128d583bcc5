import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { openFileStore } from '../../src/store/file/file-store.js';
import { memberNames } from '../../src/store/roster.js';
import { addMember, addMemberUsage, removeMember, setMemberStatus } from '../../src/store/roster-changes.js';
import type { TeamStore } from '../../src/store/team-store.js';
import { teamPaths } from '../../src/team/paths.js';
import { processStartTime } from '../../src/lib/proc-start.js';
import { killAll, spawnNode } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

// The roster changes callers make; storage-neutral, so any store would do: the file store here.

const temp = tempHome('teams-roster-changes-');
after(async () => {
  await killAll();
  temp.cleanup();
});
let teams = 0;
async function freshTeam(): Promise<TeamStore> {
  const store = openFileStore(teamPaths(temp.home, `team${teams++}`));
  await store.roster.ensure();
  return store;
}

async function deadPid(): Promise<number> {
  const child = spawnNode('-e', ['process.exit(0)']);
  await child.exited;
  return child.pid;
}

test('addMember adds a registered member; duplicates and bad fields are refused', async () => {
  const store = await freshTeam();
  const alice = await addMember(store.roster, { name: 'alice', role: 'coder', model: 'claude-x' });
  assert.deepEqual([alice.status, alice.pid, alice.model], ['registered', null, 'claude-x']);
  assert.deepEqual((await store.roster.load())?.members[1], alice);
  await assert.rejects(addMember(store.roster, { name: 'alice', role: 'tester' }), { message: `team '${store.team}' already has a member named 'alice'` });
  await assert.rejects(addMember(store.roster, { name: 'lead', role: 'tester' }), /already has a member named 'lead'/);
  await assert.rejects(addMember(store.roster, { name: 'Bob', role: 'tester' }), /cannot add member 'Bob': name: agent name 'Bob' must match/);
  await assert.rejects(addMember(store.roster, { name: 'bob', role: '' }), /cannot add member 'bob': role: role is empty/);
});

test('removeMember refuses the lead, unknown names (with a hint) and running members', async () => {
  const store = await freshTeam();
  await addMember(store.roster, { name: 'alice', role: 'coder', pid: process.pid });
  await addMember(store.roster, { name: 'bob', role: 'coder', pid: await deadPid() });
  await addMember(store.roster, { name: 'carol', role: 'coder' });
  await assert.rejects(removeMember(store.roster, 'lead'), { message: 'the lead cannot be removed from the team' });
  await assert.rejects(removeMember(store.roster, 'alcie'), { message: `no member named 'alcie' in team '${store.team}' (did you mean 'alice'?)` });
  await assert.rejects(removeMember(store.roster, 'zed'), { message: `no member named 'zed' in team '${store.team}' (members: lead, alice, bob, carol)` });
  await assert.rejects(removeMember(store.roster, 'alice'), { message: `alice is running (pid ${process.pid}); shut it down first` });
  assert.equal((await removeMember(store.roster, 'bob')).name, 'bob');
  assert.equal((await removeMember(store.roster, 'carol')).name, 'carol');
  assert.deepEqual(memberNames((await store.roster.load())!), ['lead', 'alice']);
});

test("a member's host: recorded when added, moved or cleared (null) with a status, and its liveness is its host's beat", async () => {
  const store = await freshTeam();
  const bob = await addMember(store.roster, { name: 'bob', role: 'coder', host: 'build' });
  assert.equal(bob.host, 'build');
  await assert.rejects(addMember(store.roster, { name: 'carol', role: 'coder', host: 'Build Box' }), /cannot add member 'carol': host: agent name 'Build Box' must match/);
  // A pid that runs here says nothing of a process on another machine.
  await setMemberStatus(store.roster, 'bob', 'working', { pid: process.pid });
  const now = new Date();
  const beating = { hosts: new Map([['build', { last_beat: now.toISOString() }]]), now };
  await assert.rejects(removeMember(store.roster, 'bob', beating), { message: `bob is running (pid ${process.pid} on host 'build'); shut it down first` });
  assert.equal((await setMemberStatus(store.roster, 'bob', 'starting', { host: 'gpu' })).member.host, 'gpu');
  assert.equal((await setMemberStatus(store.roster, 'bob', 'starting', {})).member.host, 'gpu', 'kept when not named');
  assert.equal((await setMemberStatus(store.roster, 'bob', 'starting', { host: null })).member.host, undefined, 'back on the lead\'s machine');
  await setMemberStatus(store.roster, 'bob', 'working', { host: 'build' });
  assert.equal((await removeMember(store.roster, 'bob')).name, 'bob', 'no beat known from here: not running');
});

test('setMemberStatus sets status, pid and model; status_since moves only when the status changes', async () => {
  const store = await freshTeam();
  await addMember(store.roster, { name: 'alice', role: 'coder' });
  const started = await setMemberStatus(store.roster, 'alice', 'starting', { pid: 4242, model: 'm1' });
  assert.equal(started.previous.status, 'registered');
  assert.deepEqual([started.member.status, started.member.pid, started.member.model], ['starting', 4242, 'm1']);
  await waitFor(() => new Date().toISOString() !== started.member.status_since, 'the clock to move');
  const again = await setMemberStatus(store.roster, 'alice', 'starting');
  assert.equal(again.member.status_since, started.member.status_since);
  assert.equal(again.member.pid, 4242);
  const crashed = await setMemberStatus(store.roster, 'alice', 'crashed', { pid: null });
  assert.notEqual(crashed.member.status_since, started.member.status_since);
  assert.equal(crashed.member.pid, null);
  assert.deepEqual((await store.roster.load())?.members[1], crashed.member);
  await assert.rejects(setMemberStatus(store.roster, 'alic', 'idle'), /no member named 'alic' .*\(did you mean 'alice'\?\)/);
});

test('a pid is kept with its process\'s start time: a pid reused by another process is not taken for the member', async () => {
  const store = await freshTeam();
  const alice = await addMember(store.roster, { name: 'alice', role: 'coder', pid: process.pid });
  const start = processStartTime(process.pid);
  assert.ok(start !== undefined, 'this machine has procfs');
  assert.equal(alice.pid_start, start);
  const stopped = await setMemberStatus(store.roster, 'alice', 'shutdown', { pid: null });
  assert.equal('pid_start' in stopped.member, false, 'no pid, no start time');
  assert.equal((await setMemberStatus(store.roster, 'alice', 'working', { pid: process.pid })).member.pid_start, start);
  // The roster names this pid, but a process that started at another time: one that is gone.
  await store.roster.update((team) => {
    const member = team.members.find((m) => m.name === 'alice');
    if (member) member.pid_start = `${start}0`;
  });
  assert.equal((await removeMember(store.roster, 'alice')).name, 'alice', 'a live pid of another process does not keep it on the roster');
});

test('addMemberUsage keeps running totals', async () => {
  const store = await freshTeam();
  await addMemberUsage(store.roster, 'lead', { input_tokens: 10, output_tokens: 5, tool_uses: 1 });
  const member = await addMemberUsage(store.roster, 'lead', { input_tokens: 1, output_tokens: 2, cache_read_tokens: 7, duration_ms: 30 });
  assert.deepEqual(member.usage, { input_tokens: 11, output_tokens: 7, cache_read_tokens: 7, cache_write_tokens: 0, tool_uses: 1, duration_ms: 30 });
  assert.deepEqual((await store.roster.load())?.members[0]?.usage, member.usage);
});

test('addMemberUsage adds up each turn\'s price; null once a turn had none', async () => {
  const store = await freshTeam();
  await addMemberUsage(store.roster, 'lead', { input_tokens: 10, output_tokens: 5, cost_usd: 0.25 });
  const priced = await addMemberUsage(store.roster, 'lead', { input_tokens: 10, output_tokens: 5, cost_usd: 0.5 });
  assert.equal(priced.usage?.cost_usd, 0.75);
  const unpriced = await addMemberUsage(store.roster, 'lead', { input_tokens: 1, output_tokens: 1, cost_usd: null });
  assert.equal(unpriced.usage?.cost_usd, null);
  assert.equal((await addMemberUsage(store.roster, 'lead', { input_tokens: 1, output_tokens: 1, cost_usd: 1 })).usage?.cost_usd, null, 'stays unknown');
  assert.equal((await store.roster.load())?.members[0]?.usage?.cost_usd, null, 'as stored');
});
