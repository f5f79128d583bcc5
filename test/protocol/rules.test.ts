import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KINDS, MAX_MESSAGE_BYTES, type Envelope } from '../../src/protocol/messages.js';
import { FROM_LEAD_KINDS, RULE_NAMES, TO_LEAD_KINDS, checkSend, type RuleName, type SendContext } from '../../src/protocol/rules.js';
import type { RequestRecord } from '../../src/protocol/request-records.js';
import { PENDING, SAMPLES, context, record, sample } from './fixtures.js';

type Case = { name: string; envelope: Envelope; ctx?: SendContext; rule: RuleName; error: string | RegExp };

function refused(envelope: Envelope, ctx: SendContext): { rule: RuleName; error: string } {
  const result = checkSend(envelope, ctx);
  assert.equal(result.ok, false, `expected ${envelope.type} ${envelope.from} → ${envelope.to} to be refused`);
  return result as { rule: RuleName; error: string };
}

/** Tracker state with one request replaced, for responses that meet a changed request. */
function withRequest(changed: RequestRecord): SendContext {
  return context([...PENDING.filter((r) => r.request_id !== changed.request_id), changed]);
}

const CASES: Case[] = [
  // Names and membership.
  { name: 'invalid sender name', envelope: sample('message', { from: 'Lead' }), rule: 'invalid_name', error: /^invalid sender: agent name 'Lead' must match/ },
  {
    name: 'invalid recipient name, with a suggestion',
    envelope: sample('message', { to: 'Alice' }),
    rule: 'invalid_name',
    error: /^invalid recipient: agent name 'Alice' must match .*; did you mean 'alice'\?$/,
  },
  { name: 'recipient with a slash', envelope: sample('message', { to: 'x/alice' }), rule: 'invalid_name', error: /^invalid recipient: agent name 'x\/alice' may not contain/ },
  {
    name: 'unknown sender',
    envelope: sample('message', { from: 'mallory', to: 'lead' }),
    rule: 'unknown_sender',
    error: "unknown sender 'mallory': not a member of team 'default' (members: lead, alice, bob)",
  },
  {
    name: 'typo in the recipient',
    envelope: sample('message', { to: 'alcie' }),
    ctx: context([], ['lead', 'alice']),
    rule: 'unknown_recipient',
    error: "unknown recipient 'alcie': not a member of team 'default' (members: lead, alice); did you mean 'alice'?",
  },
  {
    name: 'unknown recipient with nothing close',
    envelope: sample('message', { to: 'zed' }),
    rule: 'unknown_recipient',
    error: "unknown recipient 'zed': not a member of team 'default' (members: lead, alice, bob)",
  },
  {
    name: 'the sender is never suggested to itself',
    envelope: sample('message', { from: 'alice', to: 'alicf' }),
    ctx: context([], ['lead', 'alice']),
    rule: 'unknown_recipient',
    error: "unknown recipient 'alicf': not a member of team 'default' (members: lead, alice)",
  },
  { name: 'sending to yourself', envelope: sample('message', { from: 'alice', to: 'alice' }), rule: 'self_send', error: "'alice' cannot send a message to itself" },
  { name: 'the lead sending to itself', envelope: sample('message', { to: 'lead' }), rule: 'self_send', error: "'lead' cannot send a message to itself" },

  // Broadcast.
  {
    name: 'broadcast to one agent',
    envelope: sample('broadcast', { to: 'alice' }),
    rule: 'broadcast_recipient',
    error: `a broadcast must be sent to "*", not 'alice'; use type 'message' to write to one member`,
  },
  {
    name: 'broadcast to a name with a control character: quoted escaped',
    envelope: sample('broadcast', { to: 'x\u001b[2J' }),
    rule: 'broadcast_recipient',
    error: `a broadcast must be sent to "*", not 'x\\x1b[2J'; use type 'message' to write to one member`,
  },
  {
    name: 'plain message to "*"',
    envelope: sample('message', { to: '*' }),
    rule: 'chat_to_everyone',
    error: `to: "*" is only for broadcast; use type 'broadcast' to write to every member, or name one member`,
  },
  {
    name: 'structured message to "*"',
    envelope: sample('shutdown_request', { to: '*' }),
    rule: 'structured_broadcast',
    error: 'structured messages cannot be broadcast (to: "*"); send shutdown_request to one member',
  },
  {
    name: 'broadcast with no one else in the team',
    envelope: sample('broadcast'),
    ctx: context([], ['lead']),
    rule: 'empty_broadcast',
    error: "broadcast from 'lead' would reach no one: team 'default' has no other members",
  },

  // Direction.
  { name: 'shutdown_response to a teammate', envelope: sample('shutdown_response', { to: 'bob' }), rule: 'must_go_to_lead', error: `shutdown_response must be sent to "lead", not 'bob'` },
  { name: 'idle_notification to a teammate', envelope: sample('idle_notification', { to: 'bob' }), rule: 'must_go_to_lead', error: `idle_notification must be sent to "lead", not 'bob'` },
  {
    name: 'a teammate sending shutdown_request',
    envelope: sample('shutdown_request', { from: 'bob', request_id: 'shutdown-new' }),
    rule: 'must_come_from_lead',
    error: `only "lead" can send shutdown_request ('bob' is a teammate)`,
  },
  {
    name: 'a teammate approving a plan',
    envelope: sample('plan_approval_response', { from: 'bob' }),
    rule: 'must_come_from_lead',
    error: `only "lead" can send plan_approval_response ('bob' is a teammate)`,
  },
  {
    name: 'a teammate setting another one\'s permission mode',
    envelope: sample('mode_set', { from: 'bob', permission_mode: 'bypass' }),
    rule: 'must_come_from_lead',
    error: `only "lead" can send mode_set ('bob' is a teammate)`,
  },
  {
    name: "a teammate speaking in the user's voice",
    envelope: sample('user_message', { from: 'bob' }),
    rule: 'must_come_from_lead',
    error: `only "lead" can send user_message ('bob' is a teammate)`,
  },
  {
    name: 'a teammate interrupting another one',
    envelope: sample('interrupt', { from: 'bob' }),
    rule: 'must_come_from_lead',
    error: `only "lead" can send interrupt ('bob' is a teammate)`,
  },
  {
    name: 'a teammate handing another one permission rules',
    envelope: sample('rules_set', { from: 'bob', allow: ['bash'] }),
    rule: 'must_come_from_lead',
    error: `only "lead" can send rules_set ('bob' is a teammate)`,
  },

  // Content.
  {
    name: 'a review request with neither files nor a diff',
    envelope: sample('code_review_request', { request_id: 'review-new', files: [], diff: ' ' }),
    rule: 'review_needs_files_or_diff',
    error: 'a review request needs the files to review or a diff',
  },
  {
    name: 'a review answered by someone it was not asked of',
    envelope: sample('code_review_response', { from: 'lead' }),
    rule: 'wrong_responder',
    error: "request 'review-abc' was addressed to 'bob', so only 'bob' can answer it, not 'lead'",
  },
  {
    name: 'rejecting a shutdown without a reason',
    envelope: sample('shutdown_response', { approve: false }),
    rule: 'rejection_needs_reason',
    error: 'reason is required when rejecting a shutdown request: say why you must keep working',
  },
  {
    name: 'rejecting a shutdown with a blank reason',
    envelope: sample('shutdown_response', { approve: false, reason: ' \n\t' }),
    rule: 'rejection_needs_reason',
    error: /^reason is required when rejecting a shutdown request/,
  },
  {
    name: 'rejecting a finish request without feedback',
    envelope: sample('finish_response', { approve: false, feedback: '   ' }),
    rule: 'rejection_needs_feedback',
    error: 'feedback is required when rejecting a finish request: say what to continue with',
  },

  // Correlation.
  {
    name: 'a request reusing a tracked request_id',
    envelope: sample('shutdown_request', { request_id: 'plan-abc' }),
    ctx: context(PENDING),
    rule: 'duplicate_request_id',
    error: "request_id 'plan-abc' is already in use (a plan request from 'alice' to 'lead'); use a fresh id",
  },
  {
    name: 'a response to an unknown request_id',
    envelope: sample('shutdown_response', { request_id: 'shutdown-zzz' }),
    ctx: context(PENDING),
    rule: 'unknown_request_id',
    error: "unknown request_id 'shutdown-zzz': no shutdown_request was sent with that id",
  },
  {
    name: 'a response of the wrong kind',
    envelope: sample('shutdown_response', { request_id: 'plan-abc' }),
    ctx: context(PENDING),
    rule: 'request_kind_mismatch',
    error: "request 'plan-abc' is a plan request, not a shutdown request",
  },
  {
    name: 'an answer from someone the request was not addressed to',
    envelope: sample('shutdown_response', { from: 'bob' }),
    ctx: context(PENDING),
    rule: 'wrong_responder',
    error: "request 'shutdown-abc' was addressed to 'alice', so only 'alice' can answer it, not 'bob'",
  },
  {
    name: 'an answer sent to someone other than the requester',
    envelope: sample('plan_approval_response', { to: 'bob' }),
    ctx: context(PENDING),
    rule: 'wrong_response_recipient',
    error: "the answer to request 'plan-abc' must go back to its requester 'alice', not 'bob'",
  },
  {
    name: 'an answer to an approved request',
    envelope: sample('shutdown_response'),
    ctx: withRequest(record({ request_id: 'shutdown-abc', kind: 'shutdown', state: 'approved' })),
    rule: 'request_not_pending',
    error: "request 'shutdown-abc' was already approved",
  },
  {
    name: 'an answer to a rejected request',
    envelope: sample('plan_approval_response'),
    ctx: withRequest(record({ request_id: 'plan-abc', kind: 'plan', from: 'alice', to: 'lead', state: 'rejected' })),
    rule: 'request_not_pending',
    error: "request 'plan-abc' was already rejected",
  },
  {
    name: 'an answer to an expired request',
    envelope: sample('permission_response'),
    ctx: withRequest(record({ request_id: 'permission-abc', kind: 'permission', from: 'alice', to: 'lead', state: 'expired' })),
    rule: 'request_not_pending',
    error: "request 'permission-abc' has expired",
  },
  {
    name: 'an answer to a cancelled request',
    envelope: sample('finish_response'),
    ctx: withRequest(record({ request_id: 'finish-abc', kind: 'finish', from: 'alice', to: 'lead', state: 'cancelled' })),
    rule: 'request_not_pending',
    error: "request 'finish-abc' was cancelled",
  },

  // Size.
  {
    name: 'an oversized message',
    envelope: sample('message', { text: 'x'.repeat(MAX_MESSAGE_BYTES) }),
    rule: 'oversized',
    error: /^message is 262\d{3} bytes, over the 262144-byte limit; send a short summary and point to a file instead$/,
  },
];

describe('checkSend: violations', () => {
  for (const c of CASES) {
    test(`${c.rule}: ${c.name}`, () => {
      const { rule, error } = refused(c.envelope, c.ctx ?? context(PENDING));
      assert.equal(rule, c.rule);
      if (typeof c.error === 'string') assert.equal(error, c.error);
      else assert.match(error, c.error);
    });
  }

  test('every rule has a case', () => {
    const covered = new Set(CASES.map((c) => c.rule));
    assert.deepEqual(RULE_NAMES.filter((rule) => !covered.has(rule)), []);
  });

  test('rule names are distinct', () => {
    assert.equal(new Set(RULE_NAMES).size, RULE_NAMES.length);
  });
});

describe('checkSend: passing cases', () => {
  for (const kind of KINDS) {
    test(`a valid ${kind}`, () => {
      // Requests must not collide with the pending samples; responses must find them.
      const ctx = SAMPLES[kind].type.endsWith('_request') ? context() : context(PENDING);
      assert.deepEqual(checkSend(SAMPLES[kind], ctx), { ok: true });
    });
  }

  test('a teammate may chat with another teammate', () => {
    assert.deepEqual(checkSend(sample('message', { from: 'alice', to: 'bob' }), context()), { ok: true });
  });

  test('code review goes between any members: teammate to teammate, and to or from the lead', () => {
    assert.deepEqual(checkSend(sample('code_review_request', { request_id: 'review-new' }), context()), { ok: true });
    assert.deepEqual(checkSend(sample('code_review_request', { request_id: 'review-new', from: 'lead', to: 'alice' }), context()), { ok: true });
    assert.deepEqual(checkSend(sample('code_review_request', { request_id: 'review-new', from: 'bob', to: 'lead', files: undefined }), context()), { ok: true });
    assert.deepEqual(checkSend(sample('code_review_response', { approve: false, comments: 'rename it' }), context(PENDING)), { ok: true });
    assert.ok(!TO_LEAD_KINDS.has('code_review_request') && !FROM_LEAD_KINDS.has('code_review_response'));
  });

  test('a teammate may broadcast', () => {
    assert.deepEqual(checkSend(sample('broadcast', { from: 'bob' }), context()), { ok: true });
  });

  test('rejections with a reason or feedback pass', () => {
    const ctx = context(PENDING);
    assert.deepEqual(checkSend(sample('shutdown_response', { approve: false, reason: 'mid-migration' }), ctx), { ok: true });
    assert.deepEqual(checkSend(sample('finish_response', { approve: false, feedback: 'add the tests' }), ctx), { ok: true });
  });

  test('a plan or permission may be rejected without feedback', () => {
    const ctx = context(PENDING);
    assert.deepEqual(checkSend(sample('plan_approval_response', { approve: false }), ctx), { ok: true });
    assert.deepEqual(checkSend(sample('permission_response', { approve: false }), ctx), { ok: true });
  });

  test('a message exactly at the size limit passes', () => {
    const base = sample('message', { text: '' });
    const overhead = Buffer.byteLength(JSON.stringify(base));
    const atLimit = sample('message', { id: base.id, text: 'x'.repeat(MAX_MESSAGE_BYTES - overhead) });
    assert.equal(Buffer.byteLength(JSON.stringify(atLimit)), MAX_MESSAGE_BYTES);
    assert.deepEqual(checkSend(atLimit, context()), { ok: true });
  });

  test('size counts UTF-8 bytes, not characters', () => {
    const text = 'é'.repeat(MAX_MESSAGE_BYTES / 2);
    assert.equal(refused(sample('message', { text }), context()).rule, 'oversized');
  });
});

describe('checkSend: rule order and purity', () => {
  test('addressing is reported before content', () => {
    const both = sample('shutdown_response', { to: 'bob', approve: false });
    assert.equal(refused(both, context(PENDING)).rule, 'must_go_to_lead');
  });

  test('a typo is reported before the size', () => {
    const both = sample('message', { to: 'alcie', text: 'x'.repeat(MAX_MESSAGE_BYTES) });
    assert.equal(refused(both, context()).rule, 'unknown_recipient');
  });

  test('the direction sets match the protocol', () => {
    assert.deepEqual([...TO_LEAD_KINDS].sort(), [
      'finish_request',
      'idle_notification',
      'permission_request',
      'plan_approval_request',
      'shutdown_response',
      'task_notification',
    ]);
    assert.deepEqual([...FROM_LEAD_KINDS].sort(), [
      'finish_response',
      'hook_feedback',
      'interrupt',
      'mode_set',
      'permission_response',
      'plan_approval_response',
      'rules_set',
      'shutdown_request',
      'task_assignment',
      'user_message',
    ]);
  });

  test('checking reads the tracker but changes nothing', () => {
    const requests = PENDING.map((r) => ({ ...r }));
    const before = JSON.stringify(requests);
    const envelope = sample('shutdown_response');
    const copy = JSON.stringify(envelope);
    checkSend(envelope, context(requests));
    checkSend(sample('shutdown_response', { approve: false }), context(requests));
    assert.equal(JSON.stringify(requests), before);
    assert.equal(JSON.stringify(envelope), copy);
  });
});
