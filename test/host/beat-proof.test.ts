import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadOrCreateKeyPair } from '../../src/host/key-file.js';
import { proveBeat, provenAt } from '../../src/host/beat-proof.js';
import { leadBeat, leadBeatRecord } from '../../src/host/lead-beat.js';
import { judgeHost } from '../../src/host/host-liveness.js';
import { HostPins } from '../../src/host/pins.js';
import { importPublicKey } from '../../src/protocol/signing.js';
import type { HostBeat } from '../../src/store/hosts.js';
import { tempHome } from '../helpers/temp.js';
import { RemoteHosts } from '../../src/host/remote-hosts.js';
import { teamAnchor } from '../../src/host/host-files.js';
import { enrollmentMac } from '../../src/host/enrollment.js';
import { KeyRing, createSigner } from '../../src/protocol/signing.js';
import { openFileStore } from '../../src/store/file/file-store.js';
import { StoreClock } from '../../src/store/clock.js';
import { teamPaths } from '../../src/team/paths.js';

// A beat is believed by its signed time, not by the stamp the store put on it: anyone who can
// write to the store can write a fresh stamp, or copy an old beat back.

const temp = tempHome('teams-beat-proof-');
test.after(() => temp.cleanup());

const NOW = '2026-12-04T12:00:10.000Z';
const secondsBefore = (s: number) => new Date(Date.parse(NOW) - s * 1000).toISOString();
const anchor = loadOrCreateKeyPair(join(temp.home, 'anchor.json'));
const hostKey = loadOrCreateKeyPair(join(temp.home, 'host.json'));
const impostor = loadOrCreateKeyPair(join(temp.home, 'impostor.json'));
const unproven = { name: 'build', public_key: hostKey.publicKey, enrollment: 'mac', run: 'run-1' };
/** As listed: the store's stamp is always fresh here, whatever the beat says. */
const listed = (beat: ReturnType<typeof proveBeat>): HostBeat => ({ ...beat, last_beat: NOW });

test('a beat proven by its writer gives its signed time; another key, another team, or an edited beat gives none', () => {
  const beat = proveBeat(unproven, 't', secondsBefore(1), hostKey.privateKey);
  const key = importPublicKey(hostKey.publicKey);
  assert.equal(provenAt(beat, 't', key, NOW), Date.parse(secondsBefore(1)));
  assert.equal(provenAt(beat, 'u', key, NOW), undefined, 'a beat of another team');
  assert.equal(provenAt(beat, 't', importPublicKey(impostor.publicKey), NOW), undefined, 'another key');
  assert.equal(provenAt({ ...beat, signed_at: NOW }, 't', key, NOW), undefined, 'a signed time moved forward');
  assert.equal(provenAt({ ...beat, run: 'run-2' }, 't', key, NOW), undefined, 'another run');
  assert.equal(provenAt({ ...beat, proof: 'bm90IGEgc2lnbmF0dXJl' }, 't', key, NOW), undefined, 'a proof that is no signature');
});

test("a beat its own key signed with a time ahead of the store's clock proves nothing: dated in the future, it would keep a dead writer alive until then", () => {
  const key = importPublicKey(hostKey.publicKey);
  const ahead = (s: number) => proveBeat(unproven, 't', secondsBefore(-s), hostKey.privateKey);
  assert.equal(provenAt(ahead(0.5), 't', key, NOW), Date.parse(secondsBefore(-0.5)), 'two readings of the clock half a second apart');
  assert.equal(provenAt(ahead(60), 't', key, NOW), undefined);
  const pins = new HostPins(join(temp.home, 'pins-ahead.json'));
  pins.pin('build', hostKey.publicKey);
  const judged = judgeHost(listed(ahead(3_600)), NOW, 't', pins);
  assert.equal(judged.state, 'unproven');
  assert.match(judged.why ?? '', /^its beat is dated 2026-12-04T13:00:10\.000Z, ahead of the store's clock/);
  const lead = listed(leadBeatRecord(anchor, 't', 'lead-run', 'lead-key-1', secondsBefore(-3_600)));
  assert.equal(leadBeat([lead], NOW, importPublicKey(anchor.publicKey), 't'), undefined, 'a lead beat from the future is no lead beating');
});

test("the lead's beat: its age comes from the time the anchor signed, however fresh the store's stamp; an unsigned one is no lead", () => {
  const fresh = listed(leadBeatRecord(anchor, 't', 'lead-run', 'lead-key-1', secondsBefore(1)));
  assert.deepEqual(leadBeat([fresh], NOW, importPublicKey(anchor.publicKey), 't'), { ageMs: 1000, leadKey: 'lead-key-1' });
  // Its last beat, copied back by a store writer long after the lead died: old by its own word.
  const copied = listed(leadBeatRecord(anchor, 't', 'lead-run', 'lead-key-1', secondsBefore(9)));
  assert.equal(leadBeat([copied], NOW, importPublicKey(anchor.publicKey), 't')?.ageMs, 9000);
  // A beat made up by someone without the anchor's private key: no lead is beating.
  const forged = listed(proveBeat({ ...unproven, name: 'lead', public_key: anchor.publicKey, lead_key: 'lead-key-2' }, 't', NOW, impostor.privateKey));
  assert.equal(leadBeat([forged], NOW, importPublicKey(anchor.publicKey), 't'), undefined);
  assert.equal(leadBeat([], NOW, importPublicKey(anchor.publicKey), 't'), undefined);
});

test("a host as judged on the lead's machine: alive or stale by the beat its pinned key signed; unproven with the reason otherwise", () => {
  const pins = new HostPins(join(temp.home, 'pins.json'));
  const beat = listed(proveBeat(unproven, 't', secondsBefore(1), hostKey.privateKey));
  assert.equal(judgeHost(beat, NOW, 't', pins).state, 'unproven');
  assert.match(judgeHost(beat, NOW, 't', pins).why ?? '', /no key is pinned/);
  pins.pin('build', hostKey.publicKey);
  assert.deepEqual(judgeHost(beat, NOW, 't', pins), { beat, state: 'alive', ageMs: 1000, provenAt: secondsBefore(1) });
  const quiet = listed(proveBeat(unproven, 't', secondsBefore(2.5), hostKey.privateKey));
  assert.equal(judgeHost(quiet, NOW, 't', pins).state, 'stale');
  const forged = listed(proveBeat(unproven, 't', NOW, impostor.privateKey));
  assert.match(judgeHost(forged, NOW, 't', pins).why ?? '', /not signed by its pinned key/);
  const swapped = listed(proveBeat({ ...unproven, public_key: impostor.publicKey }, 't', NOW, impostor.privateKey));
  assert.match(judgeHost(swapped, NOW, 't', pins).why ?? '', /key other than the one pinned/);
});

test('a host beat overwritten by a store writer (not signed by its key) is waited out, not refused: its next signed beat attaches it', async () => {
  const paths = teamPaths(temp.home, 'overwritten');
  const store = openFileStore(paths);
  await store.roster.ensure();
  const team = teamAnchor(paths);
  const problems: string[] = [];
  const attached: string[] = [];
  const lead = createSigner();
  const hosts = new RemoteHosts({ store, clock: new StoreClock(store), paths, keys: new KeyRing(), leadKey: lead.publicKey, graceMs: 1000, keysChanged: () => undefined, problem: (what, why) => problems.push(`${what}: ${why}`), attach: (name) => {
    attached.push(name);
    return () => undefined;
  } });
  try {
    const record = { name: 'build', public_key: hostKey.publicKey, enrollment: enrollmentMac(team.secret, 'overwritten', 'build', hostKey.publicKey), run: 'run-7' };
    // Someone who can write to the store puts a beat of its own over the host's.
    await store.hosts.beat(proveBeat(record, 'overwritten', new Date().toISOString(), impostor.privateKey));
    await hosts.look();
    await hosts.look();
    assert.deepEqual(attached, []);
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0] ?? '', /host build is not attached yet: its latest beat is not signed by the key it registered with/);
    await store.hosts.beat(proveBeat(record, 'overwritten', new Date().toISOString(), hostKey.privateKey));
    await hosts.look();
    assert.deepEqual(attached, ['build']);
  } finally {
    await hosts.close();
  }
});
