import * as z from 'zod';
import { KINDS, MessageId, RequestId, RequestKindSchema, type Kind, AgentName, BROADCAST, Recipient, RequestState } from '../protocol/index.js';

/**
 * The team's append-only audit log: what was sent, decided, changed on the roster, and
 * what was refused or set aside. Each fact is written once, by the process that caused it.
 * Here: its entries' schema and who an entry concerns; the store keeps the log.
 */

const at = z.iso.datetime({ offset: true });

/** Why an agent compacted: past its threshold, told so by the API, or asked by the human (/compact). */
export const CompactReason = z.enum(['threshold', 'overflow', 'manual']);
export type CompactReason = z.infer<typeof CompactReason>;

export const AuditEntry = z.discriminatedUnion('event', [
  z.object({
    event: z.literal('message'),
    at,
    id: MessageId,
    type: z.enum(KINDS as [Kind, ...Kind[]]),
    from: AgentName,
    to: Recipient,
    request_id: RequestId.optional(),
    summary: z.string(),
  }),
  z.object({
    event: z.literal('request'),
    at,
    request_id: RequestId,
    kind: RequestKindSchema,
    from: AgentName,
    to: AgentName,
    /** null when the request was opened. */
    from_state: RequestState.nullable(),
    to_state: RequestState,
    by: z.string().min(1),
    note: z.string().optional(),
  }),
  z.object({
    event: z.literal('member'),
    at,
    name: AgentName,
    /** What changed, for a human: "added (role: tester)", "status idle → working". */
    change: z.string().min(1),
  }),
  z.object({
    event: z.literal('problem'),
    at,
    /** The agent whose message or action it was, when there is one. */
    agent: AgentName.optional(),
    /** What was refused or set aside. */
    what: z.string().min(1),
    reason: z.string().min(1),
  }),
  z.object({
    event: z.literal('compacted'),
    at,
    /** The agent whose conversation was compacted, and its context tokens before and after. */
    agent: AgentName,
    before: z.number().int().nonnegative(),
    after: z.number().int().nonnegative(),
    reason: CompactReason,
  }),
  z.object({
    event: z.literal('hook'),
    at,
    /** The team event the human's hook ran on (hook-settings.ts HOOK_EVENTS), and its command. */
    hook_event: z.string().min(1),
    command: z.string().min(1),
    /** The teammate the event concerns, when there is one. */
    agent: AgentName.optional(),
    /** `blocked`: it exited 2 on an event that can be blocked; `failed`: any other trouble, `reason` says which. */
    outcome: z.enum(['ok', 'blocked', 'failed']),
    /** null when it timed out, was killed or never started. */
    exit_code: z.number().int().nullable(),
    reason: z.string().optional(),
    /** Its output, head and tail kept when long. */
    stdout: z.string(),
    stderr: z.string(),
  }),
]);
export type AuditEntry = z.infer<typeof AuditEntry>;

/** An entry as a caller writes it: `at` is stamped on append. */
export type AuditDraft = AuditEntry extends infer E ? (E extends AuditEntry ? Omit<E, 'at'> : never) : never;

/** The agents an entry names: sender and recipient, requester, responder and decider, subject. */
export function participants(entry: AuditEntry): string[] {
  switch (entry.event) {
    case 'message':
      return entry.to === BROADCAST ? [entry.from] : [entry.from, entry.to];
    case 'request':
      return [entry.from, entry.to, entry.by];
    case 'member':
      return [entry.name];
    case 'problem':
      return entry.agent === undefined ? [] : [entry.agent];
    case 'compacted':
      return [entry.agent];
    case 'hook':
      return entry.agent === undefined ? [] : [entry.agent];
  }
}

/** Whether `agent` sent, received (broadcasts included), asked, decided or is the subject of the entry. */
export function involves(entry: AuditEntry, agent: string): boolean {
  return participants(entry).includes(agent) || (entry.event === 'message' && entry.to === BROADCAST);
}

export function filterByAgent(entries: readonly AuditEntry[], agent: string): AuditEntry[] {
  return entries.filter((entry) => involves(entry, agent));
}
