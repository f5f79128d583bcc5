import { classify, isRequest, isResponse } from './classify.js';
import { KINDS, MAX_MESSAGE_BYTES, REQUEST_KINDS, type Envelope, type Kind, type RequestKind, type ResponseEnvelope } from './messages.js';
import { KIND_SPECS, specOf } from './kinds/index.js';
import type { Direction } from './kinds/spec.js';
import { BROADCAST, LEAD, agentNameProblem } from './names.js';
import type { RequestState } from './request-states.js';
import { didYouMean } from './suggest.js';
import { quoted } from '../lib/index.js';

/**
 * The rules a message must pass before it is written to a mailbox. Pure: the caller
 * supplies the team's state and does every write (and the audit) itself, so a refused
 * message leaves no trace but the error the sender sees.
 */

/** What the rules read of a request already open; the tracker's records fit it. */
export type KnownRequest = { kind: RequestKind; from: string; to: string; state: RequestState };

export type SendContext = {
  team: string;
  /** Every member's name, the lead included. */
  members: readonly string[];
  lookupRequest(id: string): KnownRequest | undefined;
};

/** Rules a kind adds about its own content (rejection_needs_reason …), in the registry's order. */
const CONTENT_RULES = KINDS.flatMap((kind) => {
  const content = specOf(kind).content;
  return content ? [{ kind, ...content }] : [];
});
type ContentRuleName = { [K in Kind]: (typeof KIND_SPECS)[K] extends { content: { rule: infer R extends string } } ? R : never }[Kind];

export const RULE_NAMES = [
  'invalid_name',
  'unknown_sender',
  'unknown_recipient',
  'self_send',
  'broadcast_recipient',
  'chat_to_everyone',
  'structured_broadcast',
  'empty_broadcast',
  'must_go_to_lead',
  'must_come_from_lead',
  ...(CONTENT_RULES.map((c) => c.rule) as ContentRuleName[]),
  'duplicate_request_id',
  'unknown_request_id',
  'request_kind_mismatch',
  'wrong_responder',
  'wrong_response_recipient',
  'request_not_pending',
  'oversized',
] as const;
export type RuleName = (typeof RULE_NAMES)[number];

export type RuleResult = { ok: true } | { ok: false; rule: RuleName; error: string };

const withDirection = (direction: Direction): ReadonlySet<Kind> => new Set(KINDS.filter((kind) => KIND_SPECS[kind].direction === direction));

/** Kinds a teammate sends up to the lead: only the lead decides or keeps track. */
export const TO_LEAD_KINDS = withDirection('to_lead');

/** Kinds only the lead may send: orders and decisions carry the lead's authority. */
export const FROM_LEAD_KINDS = withDirection('from_lead');

const OK: RuleResult = { ok: true };
const fail = (rule: RuleName, error: string): RuleResult => ({ ok: false, rule, error });

/**
 * Check a message against every rule, in order: names and membership, addressing,
 * direction, content, request correlation, size. The first violation is returned, so
 * a typo in the recipient is reported before anything about the message's body.
 */
export function checkSend(envelope: Envelope, ctx: SendContext): RuleResult {
  for (const check of [checkSender, checkRecipient, checkDirection, checkContent, checkCorrelation, checkSize]) {
    const result = check(envelope, ctx);
    if (!result.ok) return result;
  }
  return OK;
}

function memberList(ctx: SendContext): string {
  return ctx.members.length > 0 ? ctx.members.join(', ') : 'none';
}

/** "; did you mean 'alice'?" after a refusal, or nothing. */
function suggestion(name: string, candidates: readonly string[]): string {
  const hint = didYouMean(name, candidates);
  return hint === undefined ? '' : `; ${hint}`;
}

function checkSender(envelope: Envelope, ctx: SendContext): RuleResult {
  const problem = agentNameProblem(envelope.from);
  if (problem) return fail('invalid_name', `invalid sender: ${problem}`);
  if (!ctx.members.includes(envelope.from)) {
    return fail(
      'unknown_sender',
      `unknown sender '${envelope.from}': not a member of team '${ctx.team}' (members: ${memberList(ctx)})`,
    );
  }
  return OK;
}

function checkRecipient(envelope: Envelope, ctx: SendContext): RuleResult {
  const { type, from, to } = envelope;
  if (to === BROADCAST) {
    if (classify(type).class !== 'chat') {
      return fail('structured_broadcast', `structured messages cannot be broadcast (to: "*"); send ${type} to one member`);
    }
    if (type === 'message') {
      return fail('chat_to_everyone', `to: "*" is only for broadcast; use type 'broadcast' to write to every member, or name one member`);
    }
    if (!ctx.members.some((name) => name !== from)) {
      return fail('empty_broadcast', `broadcast from '${from}' would reach no one: team '${ctx.team}' has no other members`);
    }
    return OK;
  }
  if (type === 'broadcast') {
    return fail('broadcast_recipient', `a broadcast must be sent to "*", not ${quoted(to)}; use type 'message' to write to one member`);
  }
  // A member is never suggested to itself: sending to yourself is refused anyway.
  const others = ctx.members.filter((name) => name !== from);
  const problem = agentNameProblem(to);
  if (problem) return fail('invalid_name', `invalid recipient: ${problem}${suggestion(to, others)}`);
  if (!ctx.members.includes(to)) {
    return fail(
      'unknown_recipient',
      `unknown recipient '${to}': not a member of team '${ctx.team}' (members: ${memberList(ctx)})${suggestion(to, others)}`,
    );
  }
  if (to === from) return fail('self_send', `'${from}' cannot send a message to itself`);
  return OK;
}

function checkDirection(envelope: Envelope): RuleResult {
  const { type, from, to } = envelope;
  if (TO_LEAD_KINDS.has(type) && to !== LEAD) {
    return fail('must_go_to_lead', `${type} must be sent to "${LEAD}", not '${to}'`);
  }
  if (FROM_LEAD_KINDS.has(type) && from !== LEAD) {
    return fail('must_come_from_lead', `only "${LEAD}" can send ${type} ('${from}' is a teammate)`);
  }
  return OK;
}

function checkContent(envelope: Envelope): RuleResult {
  for (const content of CONTENT_RULES) {
    if (content.kind !== envelope.type) continue;
    const error = content.check(envelope);
    if (error !== undefined) return fail(content.rule as ContentRuleName, error);
  }
  return OK;
}

/** How each state reads after "request 'x' …", for a response that came too late. */
const STATE_PHRASES: Record<RequestState, string> = {
  pending: 'is pending',
  approved: 'was already approved',
  rejected: 'was already rejected',
  expired: 'has expired',
  cancelled: 'was cancelled',
};

function checkCorrelation(envelope: Envelope, ctx: SendContext): RuleResult {
  const classification = classify(envelope.type);
  if (isRequest(envelope)) {
    const existing = ctx.lookupRequest(envelope.request_id);
    if (existing) {
      return fail(
        'duplicate_request_id',
        `request_id '${envelope.request_id}' is already in use (a ${existing.kind} request from '${existing.from}' to '${existing.to}'); use a fresh id`,
      );
    }
  }
  if (classification.class === 'response' && isResponse(envelope)) {
    return checkResponse(envelope, classification.kind, ctx);
  }
  return OK;
}

function checkResponse(envelope: ResponseEnvelope, kind: RequestKind, ctx: SendContext): RuleResult {
  const id = envelope.request_id;
  const request = ctx.lookupRequest(id);
  if (!request) {
    return fail('unknown_request_id', `unknown request_id '${id}': no ${REQUEST_KINDS[kind].request} was sent with that id`);
  }
  if (request.kind !== kind) {
    return fail('request_kind_mismatch', `request '${id}' is a ${request.kind} request, not a ${kind} request`);
  }
  if (envelope.from !== request.to) {
    return fail('wrong_responder', `request '${id}' was addressed to '${request.to}', so only '${request.to}' can answer it, not '${envelope.from}'`);
  }
  if (envelope.to !== request.from) {
    return fail('wrong_response_recipient', `the answer to request '${id}' must go back to its requester '${request.from}', not '${envelope.to}'`);
  }
  if (request.state !== 'pending') {
    return fail('request_not_pending', `request '${id}' ${STATE_PHRASES[request.state]}`);
  }
  return OK;
}

function checkSize(envelope: Envelope): RuleResult {
  const bytes = Buffer.byteLength(JSON.stringify(envelope), 'utf8');
  if (bytes > MAX_MESSAGE_BYTES) {
    return fail(
      'oversized',
      `message is ${bytes} bytes, over the ${MAX_MESSAGE_BYTES}-byte limit; send a short summary and point to a file instead`,
    );
  }
  return OK;
}
