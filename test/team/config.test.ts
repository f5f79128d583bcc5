import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addMember, addMemberUsage, createTeam, ensureTeam, loadTeam, removeMember, setMemberStatus, updateTeam } from '../../src/store/file/roster-file.js';
import { memberNames } from '../../src/store/roster.js';
import { teamPaths, type TeamPaths } from '../../src/team/paths.js';
import { DIST, killAll, spawnNode } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

const temp = tempHome('teams-config-');
after(async () => {
  await killAll();
  temp.cleanup();
});
let teams = 0;
const freshPaths = (): TeamPaths => teamPaths(temp.home, `team${teams++}`);
function freshTeam(): TeamPaths {
  const paths = freshPaths();
  createTeam(paths);
  return paths;
}

async function deadPid(): Promise<number> {
  const child = spawnNode('-e', ['process.exit(0)']);
  await child.exited;
  return child.pid;
}

test('createTeam makes the directory and a config with the lead; a second create is refused', () => {
  const paths = freshPaths();
  assert.equal(loadTeam(paths), undefined);
  const config = createTeam(paths, { deadlines_ms: { shutdown: 5_000 } });
  assert.equal(config.name, paths.team);
  assert.deepEqual(config.deadlines_ms, { shutdown: 5_000 });
  assert.deepEqual(memberNames(config), ['lead']);
  assert.deepEqual({ ...config.members[0], created_at: '', status_since: '' }, {
    name: 'lead', role: 'lead', status: 'registered', pid: null, model: null, created_at: '', status_since: '',
  });
  assert.deepEqual(loadTeam(paths), config);
  assert.throws(() => createTeam(paths), { message: `team '${paths.team}' already exists (${paths.config})` });
  assert.deepEqual(ensureTeam(paths), config);
  assert.deepEqual(readdirSync(paths.root).sort(), ['config.json'], 'no lock or temporary file left behind');
});

test('ensureTeam creates a missing team once', () => {
  const paths = freshPaths();
  const created = ensureTeam(paths);
  assert.deepEqual(ensureTeam(paths), created);
});

test('a corrupt config is a clear error naming the file and what is wrong', () => {
  const paths = freshTeam();
  writeFileSync(paths.config, '{"name": ');
  assert.throws(() => loadTeam(paths), (error: Error) => error.message.startsWith(`${paths.config} is not valid JSON (`));
  const valid = JSON.parse(JSON.stringify(createTeam(freshPaths()))) as { members: { status: string }[] };
  const lead = valid.members[0];
  assert.ok(lead);
  lead.status = 'sleeping';
  writeFileSync(paths.config, JSON.stringify({ ...valid, name: paths.team }));
  assert.throws(() => loadTeam(paths), (error: Error) => error.message.startsWith(`${paths.config} is not a valid team config: members.0.status: Invalid option`));
  assert.throws(() => updateTeam(paths, () => undefined), /is not a valid team config/);
});

test('updateTeam refuses to write an invalid roster, and a throwing mutation writes nothing', () => {
  const paths = freshTeam();
  const before = readFileSync(paths.config, 'utf8');
  assert.throws(
    () => updateTeam(paths, (team) => { team.members.push({ ...team.members[0]!, role: 'lead' }); }),
    /refusing to write an invalid team config to .*: members\.1\.name: member 'lead' is listed twice/,
  );
  assert.throws(() => updateTeam(paths, () => { throw new Error('no thanks'); }), /no thanks/);
  assert.equal(readFileSync(paths.config, 'utf8'), before);
  assert.throws(() => updateTeam(freshPaths(), () => undefined), /no team 'team\d+' \(.*config.json does not exist\); create it first/);
  const { config, result } = updateTeam(paths, (team) => { team.sandbox = 'abc'; return 42; });
  assert.equal(result, 42);
  assert.equal(config.sandbox, 'abc');
  assert.equal(loadTeam(paths)?.sandbox, 'abc');
});

test('addMember adds a registered member; duplicates and bad fields are refused', () => {
  const paths = freshTeam();
  const alice = addMember(paths, { name: 'alice', role: 'coder', model: 'claude-x' });
  assert.equal(alice.status, 'registered');
  assert.equal(alice.pid, null);
  assert.equal(alice.model, 'claude-x');
  assert.deepEqual(loadTeam(paths)?.members[1], alice);
  assert.throws(() => addMember(paths, { name: 'alice', role: 'tester' }), { message: `team '${paths.team}' already has a member named 'alice'` });
  assert.throws(() => addMember(paths, { name: 'lead', role: 'tester' }), /already has a member named 'lead'/);
  assert.throws(() => addMember(paths, { name: 'Bob', role: 'tester' }), /cannot add member 'Bob': name: agent name 'Bob' must match/);
  assert.throws(() => addMember(paths, { name: 'bob', role: '' }), /cannot add member 'bob': role: role is empty/);
});

test('removeMember refuses the lead, unknown names (with a hint) and running members', async () => {
  const paths = freshTeam();
  addMember(paths, { name: 'alice', role: 'coder', pid: process.pid });
  addMember(paths, { name: 'bob', role: 'coder', pid: await deadPid() });
  addMember(paths, { name: 'carol', role: 'coder' });
  assert.throws(() => removeMember(paths, 'lead'), { message: 'the lead cannot be removed from the team' });
  assert.throws(() => removeMember(paths, 'alcie'), { message: `no member named 'alcie' in team '${paths.team}' (did you mean 'alice'?)` });
  assert.throws(() => removeMember(paths, 'zed'), { message: `no member named 'zed' in team '${paths.team}' (members: lead, alice, bob, carol)` });
  assert.throws(() => removeMember(paths, 'alice'), { message: `alice is running (pid ${process.pid}); shut it down first` });
  assert.equal(removeMember(paths, 'bob').name, 'bob');
  assert.equal(removeMember(paths, 'carol').name, 'carol');
  assert.deepEqual(memberNames(loadTeam(paths)!), ['lead', 'alice']);
});

test('setMemberStatus sets status, pid and model; status_since moves only when the status changes', async () => {
  const paths = freshTeam();
  addMember(paths, { name: 'alice', role: 'coder' });
  const started = setMemberStatus(paths, 'alice', 'starting', { pid: 4242, model: 'm1' });
  assert.equal(started.previous.status, 'registered');
  assert.deepEqual([started.member.status, started.member.pid, started.member.model], ['starting', 4242, 'm1']);
  await waitFor(() => new Date().toISOString() !== started.member.status_since, 'the clock to move');
  const again = setMemberStatus(paths, 'alice', 'starting');
  assert.equal(again.member.status_since, started.member.status_since);
  assert.equal(again.member.pid, 4242);
  const crashed = setMemberStatus(paths, 'alice', 'crashed', { pid: null });
  assert.notEqual(crashed.member.status_since, started.member.status_since);
  assert.equal(crashed.member.pid, null);
  assert.deepEqual(loadTeam(paths)?.members[1], crashed.member);
  assert.throws(() => setMemberStatus(paths, 'alic', 'idle'), /no member named 'alic' .*\(did you mean 'alice'\?\)/);
});

test('addMemberUsage keeps running totals', () => {
  const paths = freshTeam();
  addMemberUsage(paths, 'lead', { input_tokens: 10, output_tokens: 5, tool_uses: 1 });
  const member = addMemberUsage(paths, 'lead', { input_tokens: 1, output_tokens: 2, cache_read_tokens: 7, duration_ms: 30 });
  assert.deepEqual(member.usage, { input_tokens: 11, output_tokens: 7, cache_read_tokens: 7, cache_write_tokens: 0, tool_uses: 1, duration_ms: 30 });
  assert.deepEqual(loadTeam(paths)?.members[0]?.usage, member.usage);
});

test('concurrent updateTeam from 6 processes adding 50 members each loses no update', async () => {
  const paths = freshTeam();
  const goFile = join(temp.home, `go-${paths.team}`);
  const adders = Array.from({ length: 6 }, (_, i) =>
    spawnNode(join(DIST, 'test/fixtures/config-adder.js'), [temp.home, paths.team, `p${i}`, '50', goFile]),
  );
  await waitFor(() => adders.every((c) => c.stdout().startsWith('ready\n')), 'every adder to be ready');
  writeFileSync(goFile, '');
  await waitFor(() => adders.every((c) => c.process.exitCode !== null), 'every adder to finish', 60_000);
  for (const adder of adders) assert.equal(adder.process.exitCode, 0, adder.stderr());
  const names = memberNames(loadTeam(paths)!);
  assert.equal(names.length, 301);
  for (let i = 0; i < 6; i++) for (let j = 0; j < 50; j++) assert.ok(names.includes(`p${i}-${j}`), `p${i}-${j} is on the roster`);
  assert.deepEqual(readdirSync(paths.root).sort(), ['config.json'], 'no lock or temporary file left behind');
});

test('a config lock left by a holder SIGKILLed inside updateTeam is broken', async () => {
  const paths = freshTeam();
  const holder = spawnNode(join(DIST, 'test/fixtures/config-lock-holder.js'), ['team', temp.home, paths.team]);
  await waitFor(() => holder.stdout().includes('locked\n') || holder.process.exitCode !== null, 'the holder to take the lock');
  assert.ok(existsSync(`${paths.config}.lock`), holder.stderr());
  assert.throws(() => updateTeam(paths, () => undefined, { timeoutMs: 100 }), /timed out after 100 ms waiting for lock .*\(held by pid \d+, which is still running\)/, 'the live holder still excludes');
  process.kill(holder.pid, 'SIGKILL');
  await holder.exited;
  addMember(paths, { name: 'alice', role: 'coder' });
  assert.deepEqual(memberNames(loadTeam(paths)!), ['lead', 'alice']);
});
