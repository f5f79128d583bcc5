import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import type { Envelope } from '../../src/protocol/messages.js';
import { FROM_LEAD_KINDS, TO_LEAD_KINDS } from '../../src/protocol/rules.js';
import { createSigner, KeyRing, verifySender, type Verdict } from '../../src/protocol/signing.js';
import { sample, SAMPLES } from './fixtures.js';

const lead = createSigner();
const alice = createSigner();
const bob = createSigner();

function ring(): KeyRing {
  const keys = new KeyRing();
  keys.set('lead', lead.publicKey);
  keys.set('alice', alice.publicKey);
  keys.set('bob', bob.publicKey);
  return keys;
}

function refusedFor(verdict: Verdict, reason: RegExp): void {
  assert.equal(verdict.ok, false, 'accepted');
  if (!verdict.ok) assert.match(verdict.reason, reason);
}

describe('verifySender', () => {
  test("a message signed with its sender's key is accepted", () => {
    assert.deepEqual(verifySender(alice.sign(sample('message', { from: 'alice', to: 'bob' })), ring(), 'bob'), { ok: true });
    assert.deepEqual(verifySender(alice.sign(SAMPLES.plan_approval_request), ring(), 'lead'), { ok: true });
    assert.deepEqual(verifySender(lead.sign(SAMPLES.plan_approval_response), ring(), 'alice'), { ok: true });
  });

  test('an unsigned message is refused, whoever it claims to come from', () => {
    refusedFor(verifySender(SAMPLES.plan_approval_response, ring(), 'alice'), /plan_approval_response .* from lead is unsigned/);
    refusedFor(verifySender(sample('message', { from: 'alice', to: 'bob' }), ring(), 'bob'), /is unsigned/);
    refusedFor(verifySender({ ...alice.sign(SAMPLES.idle_notification), signature: '' }, ring(), 'lead'), /is unsigned/);
  });

  test("a signature by another key is refused: a teammate cannot speak for the lead or for another teammate", () => {
    refusedFor(verifySender(alice.sign(SAMPLES.permission_response), ring(), 'alice'), /does not match lead's key/);
    refusedFor(verifySender(createSigner().sign(SAMPLES.plan_approval_response), ring(), 'alice'), /does not match lead's key/);
    refusedFor(verifySender(alice.sign(sample('message', { from: 'bob', to: 'lead' })), ring(), 'lead'), /does not match bob's key/);
  });

  test('a message changed after signing is refused', () => {
    const signed = lead.sign(SAMPLES.plan_approval_response);
    refusedFor(verifySender({ ...signed, permission_mode: 'bypass' } as Envelope, ring(), 'alice'), /does not match lead's key/);
    refusedFor(verifySender({ ...signed, to: 'bob' }, ring(), 'bob'), /does not match lead's key/);
    refusedFor(verifySender({ ...signed, signature: Buffer.from('x'.repeat(64)).toString('base64') }, ring(), 'alice'), /does not match/);
  });

  test('the signature covers the content, not the order of the fields', () => {
    const signed = alice.sign(sample('message', { from: 'alice', to: 'bob' }));
    const reordered = Object.fromEntries(Object.entries(signed).reverse()) as Envelope;
    assert.deepEqual(verifySender(reordered, ring(), 'bob'), { ok: true });
  });

  test('an unknown sender cannot be verified', () => {
    const carol = createSigner();
    refusedFor(verifySender(carol.sign(sample('message', { from: 'carol', to: 'lead' })), ring(), 'lead'), /cannot be verified: carol has no key here/);
    const keys = ring();
    keys.delete('alice');
    refusedFor(verifySender(alice.sign(SAMPLES.idle_notification), keys, 'lead'), /alice has no key here/);
  });

  test("the lead may speak for a teammate (the failure notice of one that crashed), even once the teammate's key is gone", () => {
    const notice = lead.sign(sample('task_notification', { status: 'failed', summary: 'alice was killed by SIGKILL' }));
    assert.equal(notice.from, 'alice');
    assert.deepEqual(verifySender(notice, ring(), 'lead'), { ok: true });
    const keys = ring();
    keys.delete('alice');
    assert.deepEqual(verifySender(notice, keys, 'lead'), { ok: true });
    assert.deepEqual(verifySender(lead.sign(sample('message', { from: 'alice', to: 'bob' })), ring(), 'bob'), { ok: true });
  });

  test("a decision or order signed by a teammate's real key is refused: only the lead sends those", () => {
    assert.ok(FROM_LEAD_KINDS.size >= 5);
    for (const kind of FROM_LEAD_KINDS) {
      const forged = alice.sign(sample(kind, { from: 'alice', to: 'bob' }));
      refusedFor(verifySender(forged, ring(), 'bob'), new RegExp(`only the lead sends ${kind}`));
    }
    refusedFor(verifySender(bob.sign(sample('plan_approval_response', { from: 'bob', to: 'bob' })), ring(), 'bob'), /only the lead sends plan_approval_response/);
  });

  test('what only the lead receives is refused by anyone else, whoever signed it and whatever its `to` says', () => {
    assert.ok(TO_LEAD_KINDS.size >= 5);
    for (const kind of TO_LEAD_KINDS) {
      // Addressed to the lead, but found in bob's mailbox: bob is the recipient that counts.
      const planted = alice.sign(sample(kind));
      assert.equal(planted.to, 'lead');
      refusedFor(verifySender(planted, ring(), 'bob'), new RegExp(`${kind} goes to the lead only`));
      refusedFor(verifySender(lead.sign(sample(kind)), ring(), 'alice'), new RegExp(`${kind} goes to the lead only`));
    }
  });
});

describe('KeyRing', () => {
  test('only Ed25519 public keys are taken', () => {
    const keys = new KeyRing();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    assert.throws(() => keys.set('alice', rsa), /not an Ed25519 public key \(rsa\)/);
    assert.throws(() => keys.set('alice', 'bm90IGEga2V5'));
    assert.equal(keys.get('alice'), undefined);
  });

  test('entries hand over the keys as they were given', () => {
    assert.deepEqual(ring().entries(), { lead: lead.publicKey, alice: alice.publicKey, bob: bob.publicKey });
  });
});

describe('verifySender and the directions kinds declare', () => {
  const keys = ring();

  test('a code review between teammates is believed from its sender\'s signature, both ways', () => {
    assert.deepEqual(verifySender(alice.sign(sample('code_review_request')), keys, 'bob'), { ok: true });
    assert.deepEqual(verifySender(bob.sign(sample('code_review_response')), keys, 'alice'), { ok: true });
  });

  test('a review answer signed by someone else is refused', () => {
    const verdict = verifySender(alice.sign(sample('code_review_response')), keys, 'alice');
    assert.equal(verdict.ok, false);
    assert.match(verdict.ok ? '' : verdict.reason, /does not match bob's key/);
  });

  test('kinds only the lead sends, or only the lead receives, stay so whoever signed', () => {
    const decision = bob.sign(sample('permission_response', { from: 'bob', to: 'alice' }));
    assert.deepEqual(verifySender(decision, keys, 'alice'), { ok: false, reason: `permission_response ${decision.id} from bob: only the lead sends permission_response` });
    const plan = alice.sign(sample('plan_approval_request', { to: 'bob' }));
    assert.deepEqual(verifySender(plan, keys, 'bob'), { ok: false, reason: `plan_approval_request ${plan.id} from alice: plan_approval_request goes to the lead only` });
  });

  test("the user's voice, an interrupt and permission rules: believed only from the lead's signature, never from a teammate's", () => {
    for (const type of ['user_message', 'interrupt', 'rules_set'] as const) {
      const real = lead.sign(sample(type, { to: 'bob' }));
      assert.deepEqual(verifySender(real, keys, 'bob'), { ok: true });
      // A teammate signing one as itself, or as the lead with its own key: both refused.
      const asItself = alice.sign(sample(type, { from: 'alice', to: 'bob' }));
      assert.deepEqual(verifySender(asItself, keys, 'bob'), { ok: false, reason: `${type} ${asItself.id} from alice: only the lead sends ${type}` });
      const asLead = alice.sign(sample(type, { to: 'bob' }));
      refusedFor(verifySender(asLead, keys, 'bob'), /does not match lead's key/);
      const unsigned = sample(type, { to: 'bob' });
      assert.deepEqual(verifySender(unsigned, keys, 'bob'), { ok: false, reason: `${type} ${unsigned.id} from lead is unsigned` });
    }
  });
});
