import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KIND_SPECS, requestRole, specOf } from '../../src/protocol/kinds/index.js';
import { KINDS, REQUEST_KIND_NAMES, type Kind } from '../../src/protocol/messages.js';
import { FROM_LEAD_KINDS, TO_LEAD_KINDS } from '../../src/protocol/rules.js';
import { SAMPLES } from './fixtures.js';

/** The registry is what every part of the protocol reads: it must hold together on its own. */
describe('the kind registry', () => {
  test('each kind is filed under the type its schema parses', () => {
    for (const kind of KINDS) assert.equal(specOf(kind).schema.parse(SAMPLES[kind]).type, kind);
  });

  test('requests and responses name each other', () => {
    for (const kind of KINDS) {
      const role = specOf(kind).role;
      if (role.class === 'request') {
        const answer = specOf(role.response as Kind).role;
        assert.equal(answer.class, 'response', `${kind}'s response ${role.response}`);
        assert.ok(answer.class === 'response' && answer.request === kind, `${role.response} answers ${kind}`);
      }
      if (role.class === 'response') {
        const asked = specOf(role.request as Kind).role;
        assert.ok(asked.class === 'request' && asked.response === kind, `${role.request} is answered by ${kind}`);
      }
    }
  });

  test('every request kind has a name of its own and a deadline', () => {
    assert.equal(new Set(REQUEST_KIND_NAMES).size, REQUEST_KIND_NAMES.length);
    for (const name of REQUEST_KIND_NAMES) assert.ok(requestRole(name).deadlineMs > 0, name);
    assert.throws(() => requestRole('gossip'), /unknown request kind 'gossip'/);
  });

  test('an expiry answer is a valid response of the request kind, from the silent decider to the requester', () => {
    for (const name of REQUEST_KIND_NAMES) {
      const role = requestRole(name);
      const expiry = role.expire({ request_id: `${name}-0123456789`, from: 'alice', to: 'bob' }, '1 min');
      assert.ok(expiry.note.length > 0, name);
      if (!expiry.response) continue;
      const response = specOf(role.response as Kind).schema.parse({ ...expiry.response, id: '01234567890123456789', timestamp: '2030-01-01T10:00:00.000Z' });
      assert.deepEqual([response.type, response.from, response.to], [role.response, 'bob', 'alice'], name);
    }
  });

  test('direction: every kind declares one, and the lead-only sets are derived from it', () => {
    for (const kind of KINDS) {
      const direction = KIND_SPECS[kind].direction;
      assert.ok(['from_lead', 'to_lead', 'any'].includes(direction), kind);
      assert.equal(FROM_LEAD_KINDS.has(kind), direction === 'from_lead', kind);
      assert.equal(TO_LEAD_KINDS.has(kind), direction === 'to_lead', kind);
    }
  });

  test('code review is a request any member may ask of any other, with a 10-minute deadline', () => {
    const role = requestRole('review');
    assert.equal(KIND_SPECS.code_review_request.direction, 'any');
    assert.equal(KIND_SPECS.code_review_response.direction, 'any');
    assert.equal(role.deadlineMs, 10 * 60_000);
    assert.equal(role.response, 'code_review_response');
    assert.equal(role.humanDecides('human'), false, "a review asked of the lead is the lead model's");
  });
});
