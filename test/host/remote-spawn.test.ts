import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openFileStore } from '../../src/store/file/file-store.js';
import { StoreClock } from '../../src/store/clock.js';
import type { TeamStore } from '../../src/store/team-store.js';
import { addMember } from '../../src/store/roster-changes.js';
import { teamPaths } from '../../src/team/paths.js';
import { KeyRing, createSigner } from '../../src/protocol/signing.js';
import { LEAD } from '../../src/protocol/names.js';
import { newSessionId } from '../../src/protocol/ids.js';
import { NO_RULES } from '../../src/policy/rules.js';
import { resolveModelSettings } from '../../src/model/settings.js';
import { teamAnchor } from '../../src/host/host-files.js';
import { trustToken } from '../../src/host/trust-token.js';
import { RemoteHosts } from '../../src/host/remote-hosts.js';
import type { RemoteSpawner } from '../../src/host/remote-spawner.js';
import type { ChildExit, TeammateSpec } from '../../src/process/spawner.js';
import { REPO_ROOT, isAlive, killAll, spawnNode } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

const temp = tempHome('teams-remote-spawn-');
const problems: string[] = [];
let hosts: RemoteHosts | undefined;
after(async () => {
  await hosts?.close();
  await killAll();
  temp.cleanup();
});

test('a teammate placed on a `teams host` process starts there, its key comes back verified, and a host killed has it exit unexpectedly within 3 s', async () => {
  const paths = teamPaths(temp.home, 'default');
  const store = openFileStore(paths);
  await store.roster.ensure();
  await addMember(store.roster, { name: 'alice', role: 'coder', status: 'starting' });
  const session = newSessionId();
  await store.sessions.create({ id: session, started_at: new Date().toISOString(), first_prompt: '' });
  const workdir = join(temp.home, 'host-work');
  mkdirSync(workdir);
  const host = spawnNode(join(REPO_ROOT, 'bin', 'teams.js'), ['--home', temp.home, 'host', '--trust', trustToken(teamAnchor(paths)), '--name', 'build', '--workdir', workdir], {
    env: { ...process.env, TEAMS_OFFLINE: '1' },
  });
  await waitFor(async () => (await store.hosts.list()).hosts.some((h) => h.name === 'build'), 'the host to register');

  const lead = createSigner();
  const keys = new KeyRing();
  keys.set(LEAD, lead.publicKey);
  const exits: ChildExit[] = [];
  const attached = new Map<string, RemoteSpawner>();
  hosts = new RemoteHosts({
    store,
    clock: new StoreClock(store),
    paths,
    keys,
    leadKey: lead.publicKey,
    graceMs: 2000,
    keysChanged: () => undefined,
    problem: (what, reason) => problems.push(`${what}: ${reason}`),
    attach: (name, spawner) => {
      attached.set(name, spawner);
      const unsubscribe = spawner.exits.subscribe((exit) => exits.push(exit));
      return () => {
        unsubscribe();
        attached.delete(name);
      };
    },
  });
  await hosts.start();
  const spawner = await waitFor(() => attached.get('build'), 'the host to be admitted and attached');
  const spec: TeammateSpec = {
    name: 'alice',
    planMode: false,
    permissionMode: 'default',
    sandbox: { kind: 'bwrap', network: 'on', bwrap: '/usr/bin/bwrap' },
    rules: NO_RULES,
    model: resolveModelSettings({ offline: true }, {}).model,
    journal: { session, resume: false },
    host: 'build',
  };
  await assert.rejects(spawner.spawn({ ...spec, host: 'gpu' }), /places only its own/);
  await assert.rejects(spawner.spawn({ ...spec, cwd: workdir }), /worktrees are not available on hosts yet/);
  let startedPid = 0;
  const { pid } = await spawner.spawn(spec, (p) => (startedPid = p.pid));
  assert.equal(startedPid, pid);
  assert.ok(isAlive(pid), 'the teammate runs (on this same machine, here)');
  assert.ok(keys.get('alice'), "alice's key came back in a report signed by the host");
  assert.deepEqual(spawner.running(), ['alice']);

  host.process.kill('SIGKILL');
  const exit = await waitFor(() => exits.find((e) => e.name === 'alice'), 'alice to exit once her host stops beating', 3_000);
  assert.equal(exit.expected, false);
  assert.match(spawner.placementProblem('build') ?? '', /has not beaten/);
  assert.deepEqual(spawner.running(), []);
  // Its supervisor's IPC channel closed with the host: the teammate ends itself, no orphan.
  await waitFor(() => !isAlive(pid), 'the teammate to end with its host', 10_000);
  assert.deepEqual(problems, []);
});

/** Where the host's teammates work: apart from the state root, which they must never be able to write. */
function hostWorkdir(team: string): string {
  const dir = join(temp.home, `${team}-work`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A team `team` with a `teams host` named build and a lead's RemoteHosts attached to it; `bob` placed there. */
async function leadWithBob(team: string) {
  const paths = teamPaths(temp.home, team);
  const store = openFileStore(paths);
  await store.roster.ensure();
  await addMember(store.roster, { name: 'bob', role: 'coder', status: 'starting' });
  const session = newSessionId();
  await store.sessions.create({ id: session, started_at: new Date().toISOString(), first_prompt: '' });
  const host = spawnNode(join(REPO_ROOT, 'bin', 'teams.js'), ['--home', temp.home, '--team', team, 'host', '--trust', trustToken(teamAnchor(paths)), '--name', 'build', '--workdir', hostWorkdir(team)], {
    env: { ...process.env, TEAMS_OFFLINE: '1' },
  });
  // A lead that crashes leaves its last beat in the store: the first lead here never takes its beat out.
  const crashing: TeamStore = { ...store, hosts: { beat: (r) => store.hosts.beat(r), list: () => store.hosts.list(), remove: async () => undefined, orders: store.hosts.orders, reports: store.hosts.reports } };
  const startLead = async (leadStore = store) => {
    const lead = createSigner();
    const keys = new KeyRing();
    keys.set(LEAD, lead.publicKey);
    const attached = new Map<string, RemoteSpawner>();
    const leadHosts = new RemoteHosts({ store: leadStore, clock: new StoreClock(store), paths, keys, leadKey: lead.publicKey, graceMs: 2000, keysChanged: () => undefined, problem: (what, reason) => problems.push(`${what}: ${reason}`), attach: (name, spawner) => {
      attached.set(name, spawner);
      return () => attached.delete(name);
    } });
    await leadHosts.start();
    return { leadHosts, spawner: await waitFor(() => attached.get('build'), 'the host to be attached', 10_000) };
  };
  const first = await startLead(crashing);
  const { pid } = await first.spawner.spawn({ name: 'bob', planMode: false, permissionMode: 'default', sandbox: { kind: 'bwrap', network: 'on', bwrap: '/usr/bin/bwrap' }, rules: NO_RULES, model: resolveModelSettings({ offline: true }, {}).model, journal: { session, resume: false }, host: 'build' });
  assert.ok(isAlive(pid));
  return { store, host, pid, leadHosts: first.leadHosts, startLead };
}

test("a lead that stops beating has its teammates on a host ended by that host (within 10 s), and the host stays up", async () => {
  const { host, pid, leadHosts } = await leadWithBob('second');
  // The lead stops beating, its last beat left in the store.
  await leadHosts.close();
  await waitFor(() => !isAlive(pid), 'the host to end bob once the lead stopped beating', 10_000);
  assert.equal(host.process.exitCode, null, 'the host itself goes on, waiting for orders');
  await waitFor(() => /the lead has not beaten/.test(host.stderr()) || undefined, 'the host to say why');
});

test('a lead process started again (the earlier one crashed) has the teammates the earlier one started ended at once by their host', async () => {
  const { host, pid, leadHosts, startLead } = await leadWithBob('third');
  // The first lead crashes (its last beat stays), and a new lead process of the same team, with
  // a key of its own, beats while that beat still looks fresh: its beat names it the lead now.
  await leadHosts.close();
  const second = (await startLead()).leadHosts;
  try {
    await waitFor(() => !isAlive(pid), 'the host to end bob, started by the lead before', 5_000);
    await waitFor(() => /a new lead process is running: ended bob/.test(host.stderr()) || undefined, 'the host to say why');
  } finally {
    await second.close();
  }
});
