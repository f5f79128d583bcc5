import { z } from 'zod';
import { AgentName, Recipient } from './names.js';
import { MESSAGE_ID_PATTERN } from './ids.js';

/**
 * The zod schemas here are the single source of truth for every message kind:
 * types are inferred from them and tool input schemas are generated from them.
 */

export const MessageId = z.string().regex(MESSAGE_ID_PATTERN, 'message id must be a 20-char time-sortable id');
export const RequestId = z.string().min(1, 'request_id is empty').max(64, 'request_id is longer than 64 characters');

export const PERMISSION_MODES = ['plan', 'default', 'accept-edits', 'bypass'] as const;
export const PermissionMode = z.enum(PERMISSION_MODES);
export type PermissionMode = z.infer<typeof PermissionMode>;

export const TASK_STATUSES = ['completed', 'failed', 'stopped'] as const;
export const TaskStatus = z.enum(TASK_STATUSES);
export type TaskStatus = z.infer<typeof TaskStatus>;

export const Usage = z.object({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cache_read_tokens: z.number().int().nonnegative().optional(),
  cache_write_tokens: z.number().int().nonnegative().optional(),
  tool_uses: z.number().int().nonnegative().optional(),
  duration_ms: z.number().nonnegative().optional(),
});
export type Usage = z.infer<typeof Usage>;

const text = z.string().min(1, 'text is empty');
const summary = z.string().max(200, 'summary is longer than 200 characters');

/** The fields of each kind, without the envelope. */
export const KIND_FIELDS = {
  message: { text, summary },
  broadcast: { text, summary },
  shutdown_request: { request_id: RequestId, reason: z.string().optional() },
  shutdown_response: { request_id: RequestId, approve: z.boolean(), reason: z.string().optional() },
  // Seed 002, protocol 3: a teammate says it is done and asks to be ended.
  finish_request: { request_id: RequestId, summary: z.string().min(1, 'summary is empty') },
  finish_response: { request_id: RequestId, approve: z.boolean(), feedback: z.string().optional() },
  plan_approval_request: { request_id: RequestId, plan: z.string().min(1, 'plan is empty') },
  plan_approval_response: {
    request_id: RequestId,
    approve: z.boolean(),
    feedback: z.string().optional(),
    permission_mode: PermissionMode.optional(),
  },
  permission_request: {
    request_id: RequestId,
    tool_name: z.string().min(1, 'tool_name is empty'),
    tool_input: z.record(z.string(), z.unknown()),
    reason: z.string(),
  },
  permission_response: { request_id: RequestId, approve: z.boolean(), feedback: z.string().optional() },
  task_assignment: { task_id: z.string().min(1), subject: z.string().min(1), description: z.string() },
  idle_notification: { reason: z.string().min(1), summary: z.string().optional() },
  task_notification: {
    task_id: z.string().min(1),
    status: TaskStatus,
    summary: z.string(),
    result: z.string().optional(),
    // Strict like the envelope, so a misspelled usage field is refused rather than dropped.
    usage: z.strictObject(Usage.shape).optional(),
  },
} as const;

export type Kind = keyof typeof KIND_FIELDS;
export const KINDS = Object.keys(KIND_FIELDS) as Kind[];

const envelopeFields = {
  id: MessageId,
  from: AgentName,
  to: Recipient,
  timestamp: z.iso.datetime({ offset: true }),
  // Decisions are signed by the lead (see the authenticity rules); other kinds carry none.
  signature: z.string().optional(),
};

function kindSchema<K extends Kind>(kind: K) {
  return z.strictObject({ type: z.literal(kind), ...envelopeFields, ...KIND_FIELDS[kind] });
}

export const Envelope = z.discriminatedUnion('type', [
  kindSchema('message'),
  kindSchema('broadcast'),
  kindSchema('shutdown_request'),
  kindSchema('shutdown_response'),
  kindSchema('finish_request'),
  kindSchema('finish_response'),
  kindSchema('plan_approval_request'),
  kindSchema('plan_approval_response'),
  kindSchema('permission_request'),
  kindSchema('permission_response'),
  kindSchema('task_assignment'),
  kindSchema('idle_notification'),
  kindSchema('task_notification'),
]);
export type Envelope = z.infer<typeof Envelope>;
export type EnvelopeOf<K extends Kind> = Extract<Envelope, { type: K }>;

/** What a sender supplies: the envelope's id and timestamp are stamped on send. */
export type Draft = Envelope extends infer E ? (E extends Envelope ? Omit<E, 'id' | 'timestamp'> : never) : never;

/** Requests and their responses, by the request kind the tracker knows them as. */
export const REQUEST_KINDS = {
  shutdown: { request: 'shutdown_request', response: 'shutdown_response' },
  finish: { request: 'finish_request', response: 'finish_response' },
  plan: { request: 'plan_approval_request', response: 'plan_approval_response' },
  permission: { request: 'permission_request', response: 'permission_response' },
} as const satisfies Record<string, { request: Kind; response: Kind }>;

export type RequestKind = keyof typeof REQUEST_KINDS;
export const RequestKindSchema = z.enum(Object.keys(REQUEST_KINDS) as [RequestKind, ...RequestKind[]]);

export type RequestType = (typeof REQUEST_KINDS)[RequestKind]['request'];
export type ResponseType = (typeof REQUEST_KINDS)[RequestKind]['response'];
export type RequestEnvelope = EnvelopeOf<RequestType>;
export type ResponseEnvelope = EnvelopeOf<ResponseType>;

/** Messages bigger than this, serialized, are refused: a mailbox is not a file transfer. */
export const MAX_MESSAGE_BYTES = 256 * 1024;

/** A short summary line from free text: its first line, cut to fit lists. */
export function summarize(body: string, max = 80): string {
  const firstLine = body.trim().split('\n', 1)[0] ?? '';
  return firstLine.length <= max ? firstLine : `${firstLine.slice(0, max - 1)}…`;
}
