import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { loadOrCreateKeyPair } from '../../src/host/key-file.js';
import { parseTrustToken, trustToken } from '../../src/host/trust-token.js';
import { enrollmentMac } from '../../src/host/enrollment.js';
import { HostPins } from '../../src/host/pins.js';
import { admitHost } from '../../src/host/admission.js';
import { signLine } from '../../src/host/signed-line.js';
import { OrderGate, type Order } from '../../src/host/orders.js';
import { ReportGate, type Report } from '../../src/host/reports.js';
import { tempHome } from '../helpers/temp.js';

const temp = tempHome('teams-host-trust-');
test.after(temp.cleanup);

test('the anchor is made once, mode 0600, and read back the same; its token gives its key and secret back', () => {
  const path = join(temp.home, 'a', 'anchor.json');
  const anchor = loadOrCreateKeyPair(path);
  assert.equal(statSync(path).mode & 0o777, 0o600);
  const again = loadOrCreateKeyPair(path);
  assert.equal(again.publicKey, anchor.publicKey);
  assert.ok(again.secret.equals(anchor.secret));
  const trust = parseTrustToken(trustToken(anchor));
  assert.equal(trust.anchorPublicKey, anchor.publicKey);
  assert.ok(trust.secret.equals(anchor.secret));
});

test('a bad token is refused with a reason, never echoing a secret', () => {
  assert.throws(() => parseTrustToken('hello'), /not a trust token/);
  assert.throws(() => parseTrustToken('teams1.abc.short'), /damaged/);
  const secret = Buffer.alloc(32, 7).toString('base64url');
  assert.throws(() => parseTrustToken(`teams1.AAAA.${secret}`), (error: Error) => /not usable/.test(error.message) && !error.message.includes(secret));
});

test('a host is admitted only with the enrollment MAC, and its key is pinned on first sight', () => {
  const anchor = loadOrCreateKeyPair(join(temp.home, 'b', 'anchor.json'));
  const host = loadOrCreateKeyPair(join(temp.home, 'b', 'host.json'));
  const pins = new HostPins(join(temp.home, 'b', 'pins.json'));
  const beat = { name: 'build', public_key: host.publicKey, enrollment: enrollmentMac(anchor.secret, 't', 'build', host.publicKey), run: 'run-1', last_beat: new Date().toISOString() };
  const first = admitHost(beat, 't', anchor.secret, pins);
  assert.ok(first.ok && first.first);
  const second = admitHost(beat, 't', anchor.secret, pins);
  assert.ok(second.ok && !second.first);
  // Without the secret: a MAC under another one, or the right MAC for another team or name.
  const forged = { ...beat, enrollment: enrollmentMac(Buffer.alloc(32), 't', 'build', host.publicKey) };
  const forgedRefused = admitHost(forged, 't', anchor.secret, pins);
  assert.ok(!forgedRefused.ok && /enrollment secret/.test(forgedRefused.reason));
  const otherTeam = admitHost(beat, 'u', anchor.secret, pins);
  assert.ok(!otherTeam.ok && /enrollment secret/.test(otherTeam.reason));
  // The secret holder registering the same name with another key: refused by the pin.
  const impostor = loadOrCreateKeyPair(join(temp.home, 'b', 'impostor.json'));
  const swapped = { ...beat, public_key: impostor.publicKey, enrollment: enrollmentMac(anchor.secret, 't', 'build', impostor.publicKey) };
  const refused = admitHost(swapped, 't', anchor.secret, pins);
  assert.ok(!refused.ok && /other than the one pinned/.test(refused.reason));
});

test('orders: only the anchor signs, only for this host and run, each id once', () => {
  const anchor = generateKeyPairSync('ed25519');
  const other = generateKeyPairSync('ed25519');
  const gate = new OrderGate(anchor.publicKey, 'build', 'run-1');
  const order: Order = { id: 'order-0001', to: 'build', run: 'run-1', body: { type: 'kill_all' } };
  assert.deepEqual(gate.admit(signLine(anchor.privateKey, order)), { ok: true, value: order });
  assert.match(reason(gate.admit(signLine(anchor.privateKey, order))), /replay/);
  assert.match(reason(gate.admit(signLine(other.privateKey, { ...order, id: 'order-0002' }))), /signature/);
  assert.match(reason(gate.admit(signLine(anchor.privateKey, { ...order, id: 'order-0003', run: 'run-0' }))), /another run/);
  assert.match(reason(gate.admit(signLine(anchor.privateKey, { ...order, id: 'order-0004', to: 'gpu' }))), /for host gpu/);
  // A signed line whose payload was changed after signing: the signature no longer matches.
  const line = JSON.parse(signLine(anchor.privateKey, { ...order, id: 'order-0005' })) as { payload: Order; signature: string };
  line.payload.body = { type: 'compact', name: 'alice' };
  assert.match(reason(gate.admit(JSON.stringify(line))), /signature/);
  assert.match(reason(gate.admit('not json')), /not JSON/);
  assert.match(reason(gate.admit(signLine(anchor.privateKey, { ...order, id: 'order-0006', body: { type: 'format_disk' } }))), /malformed/);
});

test("reports: only the host's pinned key signs, in its own name, each id once", () => {
  const host = generateKeyPairSync('ed25519');
  const other = generateKeyPairSync('ed25519');
  const gate = new ReportGate(host.publicKey, 'build');
  const report: Report = { id: 'report-0001', from: 'build', order: 'order-0001', name: 'alice', body: { type: 'ready', pid: 1234 } };
  assert.ok(gate.admit(signLine(host.privateKey, report)).ok);
  assert.match(reason(gate.admit(signLine(host.privateKey, report))), /replay/);
  assert.match(reason(gate.admit(signLine(other.privateKey, { ...report, id: 'report-0002' }))), /signature/);
  assert.match(reason(gate.admit(signLine(host.privateKey, { ...report, id: 'report-0003', from: 'gpu' }))), /says it is from gpu/);
});

function reason(opened: { ok: true } | { ok: false; reason: string }): string {
  return opened.ok ? 'admitted' : opened.reason;
}
