import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openFileStore } from '../../src/store/file/file-store.js';
import { fileLayout } from '../../src/store/file/layout.js';
import { updateConfig } from '../../src/store/file/roster-file.js';
import { memberNames } from '../../src/store/roster.js';
import { addMember } from '../../src/store/roster-changes.js';
import type { TeamStore } from '../../src/store/team-store.js';
import { teamPaths, type TeamPaths } from '../../src/team/paths.js';
import { DIST, killAll, spawnNode } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

// What the file store adds to the conformance suite: its files, their corruption, its lock.

const temp = tempHome('teams-file-roster-');
after(async () => {
  await killAll();
  temp.cleanup();
});
let teams = 0;
async function freshTeam(): Promise<{ paths: TeamPaths; store: TeamStore; config: string }> {
  const paths = teamPaths(temp.home, `team${teams++}`);
  const store = openFileStore(paths);
  await store.roster.ensure();
  return { paths, store, config: fileLayout(paths.root).config };
}

test('the roster is config.json alone: no lock or temporary file is left behind', async () => {
  const { paths, store } = await freshTeam();
  await addMember(store.roster, { name: 'alice', role: 'coder' });
  assert.deepEqual(readdirSync(paths.root).sort(), ['.gitignore', 'config.json']);
});

test("a team's state stays out of the project's git status; the settings file does not, and an edited ignore file is kept", async () => {
  const repo = join(temp.home, 'project');
  execFileSync('git', ['init', '-q', repo]);
  const home = join(repo, '.teams');
  const paths = teamPaths(home, 'default');
  await openFileStore(paths).roster.ensure();
  mkdirSync(join(paths.root, 'worktrees', 'alice'), { recursive: true });
  writeFileSync(join(paths.root, 'worktrees', 'alice', 'notes.md'), 'x\n');
  writeFileSync(join(home, 'settings.json'), '{}\n');
  const status = execFileSync('git', ['-C', repo, 'status', '--porcelain', '--untracked-files=all'], { encoding: 'utf8' });
  assert.equal(status, '?? .teams/settings.json\n');
  writeFileSync(join(paths.root, '.gitignore'), 'mine\n');
  await openFileStore(teamPaths(home, 'default')).roster.ensure();
  assert.equal(readFileSync(join(paths.root, '.gitignore'), 'utf8'), 'mine\n');
});

test('a corrupt config is a clear error naming the file and what is wrong, on every read and update', async () => {
  const { store, config } = await freshTeam();
  const valid = JSON.parse(readFileSync(config, 'utf8')) as { members: { status: string }[] };
  writeFileSync(config, '{"name": ');
  await assert.rejects(store.roster.load(), (error: Error) => error.message.startsWith(`${config} is not valid JSON (`));
  const lead = valid.members[0];
  assert.ok(lead);
  lead.status = 'sleeping';
  writeFileSync(config, JSON.stringify(valid));
  await assert.rejects(store.roster.load(), (error: Error) => error.message.startsWith(`${config} is not a valid team config: members.0.status: Invalid option`));
  await assert.rejects(store.roster.update(() => undefined), /is not a valid team config/);
  writeFileSync(config, '{"name": "\u0007"}');
  await assert.rejects(store.roster.load(), /holds binary data \(control character \\x07 at character 10\)/);
});

test('an update of a team that does not exist names the file it looked for', async () => {
  const store = openFileStore(teamPaths(temp.home, 'absent'));
  await assert.rejects(store.roster.update(() => undefined), /no team 'absent' \(.*config.json does not exist\); create it first/);
});

test('updates from 6 processes adding 30 members each lose none', async () => {
  const { paths, store } = await freshTeam();
  const opener = fileURLToPath(new URL('./file-store-opener.js', import.meta.url));
  const descriptor = JSON.stringify({ home: temp.home, team: paths.team });
  const adders = Array.from({ length: 6 }, (_, i) =>
    spawnNode(join(DIST, 'test/fixtures/store-child.js'), [opener, descriptor, 'roster', `p${i}`, '30'], { stdio: ['pipe', 'pipe', 'pipe'] }),
  );
  await waitFor(() => adders.every((c) => c.stdout().startsWith('ready\n')), 'every adder to be ready');
  for (const adder of adders) adder.process.stdin?.write('go\n');
  await waitFor(() => adders.every((c) => c.process.exitCode !== null), 'every adder to finish', 60_000);
  for (const adder of adders) assert.equal(adder.process.exitCode, 0, adder.stderr());
  const names = memberNames((await store.roster.load())!);
  assert.equal(names.length, 181);
  assert.deepEqual(readdirSync(paths.root).sort(), ['.gitignore', 'config.json'], 'no lock or temporary file left behind');
});

test('a config lock left by a holder SIGKILLed inside an update is broken', async () => {
  const { paths, store, config } = await freshTeam();
  const holder = spawnNode(join(DIST, 'test/fixtures/config-lock-holder.js'), ['team', temp.home, paths.team]);
  await waitFor(() => holder.stdout().includes('locked\n') || holder.process.exitCode !== null, 'the holder to take the lock');
  assert.ok(existsSync(`${config}.lock`), holder.stderr());
  assert.throws(() => updateConfig(paths, () => undefined, { timeoutMs: 100 }), /timed out after 100 ms waiting for lock .*\(held by pid \d+, which is still running\)/, 'the live holder still excludes');
  process.kill(holder.pid, 'SIGKILL');
  await holder.exited;
  await addMember(store.roster, { name: 'alice', role: 'coder' });
  assert.deepEqual(memberNames((await store.roster.load())!), ['lead', 'alice']);
});

test('ensuring the team sweeps the temporaries of writers killed mid-write', async () => {
  const { paths, store } = await freshTeam();
  const child = spawnNode('-e', ['process.exit(0)']);
  await child.exited;
  writeFileSync(join(paths.root, `.config.json.${child.pid}.0.tmp`), '{"half');
  await store.roster.ensure();
  assert.deepEqual(readdirSync(paths.root).sort(), ['.gitignore', 'config.json']);
});
