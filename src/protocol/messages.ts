import * as z from 'zod';
import { ENVELOPE_FIELDS } from './fields.js';
import { KIND_SPECS, type Kind } from './kinds/index.js';

/**
 * The envelope of every message, derived from the kinds' own files (src/protocol/kinds/):
 * types are inferred from their zod schemas and tool input schemas are generated from them.
 */

export { MessageId, RequestId, PERMISSION_MODES, PermissionMode, TASK_STATUSES, TaskStatus, Usage } from './fields.js';
export type { Kind } from './kinds/index.js';
export { summarize } from './kinds/text.js';

type Specs = typeof KIND_SPECS;
type Schema = Specs[Kind]['schema'];

export const KINDS = Object.keys(KIND_SPECS) as Kind[];

export const Envelope = z.discriminatedUnion('type', KINDS.map((kind) => KIND_SPECS[kind].schema as Schema) as [Schema, ...Schema[]]);
export type Envelope = z.infer<typeof Envelope>;
export type EnvelopeOf<K extends Kind> = Extract<Envelope, { type: K }>;

const ENVELOPE_KEYS = new Set(['type', ...Object.keys(ENVELOPE_FIELDS)]);

/** The fields of each kind, without the envelope. */
export const KIND_FIELDS = Object.fromEntries(
  KINDS.map((kind) => [kind, Object.fromEntries(Object.entries(KIND_SPECS[kind].schema.shape).filter(([key]) => !ENVELOPE_KEYS.has(key)))]),
) as { [K in Kind]: Record<string, z.ZodType> };

/** What a sender supplies: the envelope's id and timestamp are stamped on send. */
export type Draft = Envelope extends infer E ? (E extends Envelope ? Omit<E, 'id' | 'timestamp'> : never) : never;

/** A draft as an agent's tools write it: the harness fills in who sends it. */
export type OutgoingDraft = Draft extends infer D ? (D extends Draft ? Omit<D, 'from'> : never) : never;

/** The draft `from` sends. */
export function draftFrom(from: string, draft: OutgoingDraft): Draft {
  // Omit distributes over the union, so putting `from` back gives each member its own shape again.
  return { ...draft, from } as Draft;
}

/** [request type, the request kind's name] for each kind that is a request. */
type RequestPairs = { [K in Kind]: Specs[K]['role'] extends { class: 'request'; kind: infer R extends string } ? [K, R] : never }[Kind];

export type RequestKind = RequestPairs[1];
export type RequestType = RequestPairs[0];
export type ResponseType = { [K in Kind]: Specs[K]['role'] extends { class: 'response' } ? K : never }[Kind];
export type RequestEnvelope = EnvelopeOf<RequestType>;
export type ResponseEnvelope = EnvelopeOf<ResponseType>;

/** Requests and their responses, by the request kind the tracker knows them as. */
export const REQUEST_KINDS = Object.fromEntries(
  KINDS.flatMap((kind) => {
    const role = KIND_SPECS[kind].role;
    return role.class === 'request' ? [[role.kind, { request: kind, response: role.response }]] : [];
  }),
) as Record<RequestKind, { request: RequestType; response: ResponseType }>;

export const REQUEST_KIND_NAMES = Object.keys(REQUEST_KINDS) as RequestKind[];
export const RequestKindSchema = z.enum(REQUEST_KIND_NAMES as [RequestKind, ...RequestKind[]]);

/** Messages bigger than this, serialized, are refused: a mailbox is not a file transfer. */
export const MAX_MESSAGE_BYTES = 256 * 1024;
