import type * as z from 'zod';
import type { PermissionMode } from '../fields.js';

/**
 * What a protocol kind declares about itself, in its one file under src/protocol/kinds/.
 * The registry (index.ts) is typed against this, so a kind missing a field does not compile,
 * and rules, signing, notices, expiry, summaries and routing all read it from there.
 */

/** The envelope fields every kind has (fields.ts holds their schemas). */
export type EnvelopeHead = { type: string; id: string; from: string; to: string; timestamp: string; signature?: string };

/**
 * Who may send a kind to whom. There is no default: a kind that forgot would otherwise be
 * accepted from anyone, so the compiler asks.
 * - `from_lead`: only the lead sends it (orders and decisions carry the lead's authority);
 * - `to_lead`: only the lead receives it (what only the lead decides or keeps track of);
 * - `any`: any member to any other member, teammate to teammate included.
 */
export type Direction = 'from_lead' | 'to_lead' | 'any';

/** Who reviews teammates' plans: the human (the default) or the lead's model. */
export type PlanReviewer = 'human' | 'lead';

/** A request as its kind needs to know it; the tracker's record has these and more. */
export type OpenRequest = { request_id: string; from: string; to: string };

/** A response as a kind drafts it (on a human's decision, or on expiry); the schema checks it when it is sent. */
export type ResponseDraft = { type: string; from: string; to: string; request_id: string; approve: boolean } & Record<string, unknown>;

/** A human's decision on a request addressed to the lead, and the lead's own mode (which an approved plan hands on). */
export type Decision = {
  approve: boolean;
  note?: string;
  permissionMode?: PermissionMode;
  /** A permission approved for the rest of the session: the asker may repeat the call unasked. */
  always?: boolean;
};

/**
 * What a request's deadline means: the requester gets a response as if the decider had
 * answered, or `to` gets a plain notice. `note` is one line for the journal and the audit log.
 */
export type Expiry = { note: string } & ({ response: ResponseDraft; notice?: undefined } | { notice: string; to: string; response?: undefined });

/** What the lead's harness does with a message addressed to it. */
export type LeadRoute = {
  /** Text for the lead's model, if the model should hear of it. */
  notice?: string;
  /** A decision that waits for the human in the approval queue. */
  forHuman?: boolean;
  /** The teammate agreed to stop: expect its process to exit, and end it after the grace period. */
  expectExit?: string;
};

/** A teammate's protocol state, as kinds read and change it: what it may do, and what it is waiting for. */
export type TeammateState = {
  mode: PermissionMode;
  /** Plan mode holds until a plan is approved; the harness, not the prompt, enforces it. */
  planApproved: boolean;
  planRejections: number;
  /** Set once the teammate agreed to stop: it finishes the step under way, then exits. */
  stopping: false | 'shutdown' | 'finish';
};

/** What a message means at the teammate it reaches; the harness (teammate/harness.ts) acts on it. */
export type TeammateReaction = {
  state: TeammateState;
  /** Text for the model, if the model should hear of it: a turn starts if none runs. */
  notice?: string;
  /** A permission decision to hand to the tool call waiting for it. */
  permission?: { requestId: string; approve: boolean; feedback?: string; always?: boolean };
  /** The task it now works on. */
  task?: { id: string; subject: string; description?: string };
  /** Rules to hold from now on, as text: the harness parses them with the policy, which lives above the protocol. */
  rules?: { allow: string[]; deny: string[]; network: string[] };
  /** End the turn under way (the user's interrupt). */
  halt?: true;
};

export type RequestRole<E> = {
  class: 'request';
  /** The name the tracker, `teams requests` and `deadlines_ms` know the request by. */
  kind: string;
  /** The type of its answer. */
  response: string;
  /** How long the addressee has, unless the team's config says otherwise. */
  deadlineMs: number;
  /** What the decider needs to see, kept in the request's record (the plan, the command). */
  subject(envelope: E): string;
  /** What happens when no answer came in time; `waited` reads "10 min". */
  expire(request: OpenRequest, waited: string): Expiry;
  /** Addressed to the lead: whether the human decides it (else the lead's model hears of it). */
  humanDecides(planReviewer: PlanReviewer): boolean;
  /** The lead's answer carrying a human's decision, or why a human cannot give one. */
  answer: ((request: OpenRequest, decision: Decision) => ResponseDraft) | { refused: string };
};

export type Role<E> =
  /** Free text between members; only chat may be broadcast. */
  | { class: 'chat' }
  | { class: 'notification' }
  | RequestRole<E>
  /** `request` is the request's type; `note` is what the record keeps of the answer. */
  | { class: 'response'; request: string; note(envelope: E): string | undefined };

/** A check of a kind's content beyond its schema, with the rule's own name. */
export type ContentRule<E> = { rule: string; check(envelope: E): string | undefined };

export type KindBody<E> = {
  direction: Direction;
  role: Role<E>;
  /** The notice a model reads: who wants what, and how to answer. */
  notice(envelope: E): string;
  /** What a human reads in the UI, the CLI and the audit log: never the instructions meant for models. */
  line(envelope: E): string;
  content?: ContentRule<E>;
  /**
   * Whose words these are when they are not the sender's own: the lead relays the human's
   * (`user`), and every line a person reads names them as the author, the relay beside it.
   */
  author?: 'user';
  /** Reaching the lead; without it, the lead's model hears the notice (a request the human decides waits for them). */
  atLead?(envelope: E, planReviewer: PlanReviewer): LeadRoute;
  /**
   * `false`: it sets no one to work. Its addressee's model hears nothing of it and no turn
   * starts (the harness alone acts on it), so an idle member stays idle. Unset, it starts one.
   */
  startsTurn?: false;
  /** Reaching a teammate; without it, the teammate's model hears the notice and its state stays. */
  atTeammate?(envelope: E, state: TeammateState): TeammateReaction;
};

export type KindSpec<E extends EnvelopeHead = EnvelopeHead> = KindBody<E> & { schema: z.ZodObject & z.ZodType<E> };

/** A kind's spec from its schema and what it declares; literal names (a request's kind) stay literal. */
export function defineKind<S extends z.ZodObject, const B extends KindBody<z.output<S>>>(schema: S, body: B): B & { schema: S } {
  return { ...body, schema };
}

/** An answer to `request`: from whom it was asked of, back to whoever asked. Expiry and the lead's decisions draft theirs so. */
export function responseTo<const F extends { type: string; approve: boolean }>(request: OpenRequest, fields: F): F & { from: string; to: string; request_id: string } {
  return { ...fields, from: request.to, to: request.from, request_id: request.request_id };
}

/** A message of schema `S` as its sender drafts it: the envelope's id and timestamp are stamped on send. */
export type DraftOf<S extends z.ZodType> = Omit<z.output<S>, 'id' | 'timestamp'>;
