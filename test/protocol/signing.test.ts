import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createSigner, KeyRing, verifySender } from '../../src/protocol/signing.js';
import { sample } from './fixtures.js';

describe('verifySender and the directions kinds declare', () => {
  const alice = createSigner();
  const bob = createSigner();
  const lead = createSigner();
  const keys = new KeyRing();
  keys.set('alice', alice.publicKey);
  keys.set('bob', bob.publicKey);
  keys.set('lead', lead.publicKey);

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
});
