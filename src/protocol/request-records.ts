import * as z from 'zod';
import { RequestId, RequestKindSchema } from './messages.js';
import { AgentName, LEAD } from './names.js';
import { RequestState } from './request-states.js';

export { REQUEST_STATES, RequestState } from './request-states.js';

/** One tracked request, as folded from the journal. */
export const RequestRecord = z.object({
  request_id: RequestId,
  kind: RequestKindSchema,
  from: AgentName,
  to: AgentName,
  created_at: z.iso.datetime({ offset: true }),
  deadline_at: z.iso.datetime({ offset: true }),
  state: RequestState,
  /** What a human needs to decide: the plan, the command, the reason. */
  summary: z.string(),
  /** A permission request's tool call, whole: what its preview shows (team/preview.ts). */
  tool: z.object({ name: z.string(), input: z.record(z.string(), z.unknown()), reason: z.string() }).optional(),
  decided_at: z.iso.datetime({ offset: true }).optional(),
  decided_by: z.string().optional(),
  /** Feedback or reason given with the decision, or why it expired or was cancelled. */
  note: z.string().optional(),
});
export type RequestRecord = z.infer<typeof RequestRecord>;

/** Asked by the lead's own harness of the human (its own risky tool call), not by a teammate. */
export function isOwnRequest(record: RequestRecord): boolean {
  return record.from === LEAD && record.to === LEAD;
}
