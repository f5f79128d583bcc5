import * as z from 'zod';
import { AgentName, Recipient } from './names.js';
import { MESSAGE_ID_PATTERN } from './ids.js';

/** The field types kinds share, and the envelope every kind is wrapped in. */

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

export const ENVELOPE_FIELDS = {
  id: MessageId,
  from: AgentName,
  to: Recipient,
  timestamp: z.iso.datetime({ offset: true }),
  // Every message is signed by its sender (signing.ts); the schema only says where it goes.
  signature: z.string().optional(),
};

/** The schema of one kind: its own fields inside the envelope, strict so a misspelt field is refused. */
export function envelopeOf<const K extends string, F extends z.ZodRawShape>(type: K, fields: F) {
  return z.strictObject({ type: z.literal(type), ...ENVELOPE_FIELDS, ...fields });
}
