import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as z from 'zod';
import { proveBeat } from '../../src/host/beat-proof.js';
import { hostPins } from '../../src/host/host-files.js';
import { loadOrCreateKeyPair } from '../../src/host/key-file.js';
import { addMember, setMemberStatus } from '../../src/store/roster-changes.js';
import { teamPaths } from '../../src/team/paths.js';
import { runCli } from '../helpers/cli.js';
import { killAll } from '../helpers/children.js';
import { storeOf } from '../helpers/store.js';
import { tempHome } from '../helpers/temp.js';

// `teams hosts` and `teams member remove` on the lead's machine judge a host by the beats it
// signed with its pinned key, never by the store's stamp, which anyone who writes to the store
// can refresh.

const { home, cleanup } = tempHome('teams-hosts-cli-');
after(async () => {
  await killAll();
  cleanup();
});

const Listed = z.object({
  team: z.string(),
  hosts: z.array(z.object({ name: z.string(), state: z.enum(['alive', 'stale', 'unproven']), age_ms: z.number().nullable(), why: z.string().optional(), teammates: z.array(z.string()) })),
});

const store = storeOf(home);
const paths = teamPaths(home, 'default');
const build = loadOrCreateKeyPair(join(home, 'build-key.json'));
const impostor = loadOrCreateKeyPair(join(home, 'impostor-key.json'));
/** A beat from `build`, made `secondsAgo` before the store's now, signed with `key`. */
async function beat(secondsAgo: number, key = build) {
  const at = new Date(Date.now() - secondsAgo * 1000).toISOString();
  await store.hosts.beat(proveBeat({ name: 'build', public_key: build.publicKey, enrollment: 'mac', run: 'run-1', machine: 'build-box' }, 'default', at, key.privateKey));
}
async function listed() {
  const result = await runCli(home, ['hosts', '--json']);
  assert.equal(result.code, 0, result.stderr);
  return Listed.parse(JSON.parse(result.stdout));
}

test('teams hosts says when no host has registered', async () => {
  await store.roster.ensure();
  const result = await runCli(home, ['hosts']);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /no hosts have registered.*teams hosts key/);
});

test('teams hosts: alive, stale or unproven (with why) by the signed beat, and the teammates placed on each; member remove refuses a member whose host beats', async () => {
  await addMember(store.roster, { name: 'bob', role: 'coder' });
  await setMemberStatus(store.roster, 'bob', 'working', { pid: 4242, host: 'build' });

  await beat(0);
  let [row] = (await listed()).hosts;
  assert.equal(row?.state, 'unproven', 'no key is pinned until the lead admits the host');
  assert.match(row?.why ?? '', /no key is pinned/);

  hostPins(paths).pin('build', build.publicKey);
  // A live host beats on (every 500 ms): a CLI slow to start under load still sees a fresh beat.
  let beating = Promise.resolve();
  const beater = setInterval(() => {
    beating = beating.then(() => beat(0));
  }, 200);
  try {
    [row] = (await listed()).hosts;
    assert.deepEqual([row?.state, row?.teammates], ['alive', ['bob']]);
    const text = await runCli(home, ['hosts']);
    assert.match(text.stdout, /build\s+alive\s+beat \d+\.\d s ago {2}bob {2}\(build-box\)/);
    const refused = await runCli(home, ['member', 'remove', 'bob']);
    assert.equal(refused.code, 2, refused.stdout);
    assert.match(refused.stderr, /bob is running \(pid 4242 on host 'build'\)/);
  } finally {
    clearInterval(beater);
    await beating;
  }

  // Someone who writes to the store beats for build with a key of their own: that is no beat.
  await beat(0, impostor);
  [row] = (await listed()).hosts;
  assert.equal(row?.state, 'unproven');
  assert.match(row?.why ?? '', /not signed by its pinned key/);

  // Build's own beat, from 10 s ago, freshly stamped by the store: stale, and bob can go.
  await beat(10);
  [row] = (await listed()).hosts;
  assert.equal(row?.state, 'stale');
  assert.ok((row?.age_ms ?? 0) >= 10_000);
  const removed = await runCli(home, ['member', 'remove', 'bob']);
  assert.equal(removed.code, 0, removed.stderr);
  assert.match(removed.stdout, /removed bob/);
});
