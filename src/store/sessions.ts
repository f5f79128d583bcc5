import * as z from 'zod';
import { SESSION_ID_PATTERN, AgentName, LEAD } from '../protocol/index.js';
import { addCounts } from '../lib/index.js';

/**
 * Sessions: what survives a restart of the lead. Each agent's conversation is journaled as
 * records (the agent layer's `ConversationRecord`: user, assistant, replaced), one a line,
 * written before the model call that uses them. Here: the schemas a journal is read back
 * with; the store keeps the journals.
 *
 * The content blocks are checked loosely but for real: the shape the Messages API gives each
 * kind the agents use, and any other kind (one a newer API adds) kept as it is, so a journal
 * from a newer version still resumes.
 */

export const SessionId = z.string().regex(SESSION_ID_PATTERN, 'not a session id (session- and 10 letters or digits)');

const at = z.iso.datetime({ offset: true });

const TextBlock = z.looseObject({ type: z.literal('text'), text: z.string() });
const ToolUseBlock = z.looseObject({ type: z.literal('tool_use'), id: z.string().min(1), name: z.string().min(1), input: z.record(z.string(), z.unknown()) });
const ToolResultBlock = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).optional(),
  is_error: z.boolean().optional(),
});
const ThinkingBlock = z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() });
const KNOWN = new Map<string, z.ZodType>([['text', TextBlock], ['tool_use', ToolUseBlock], ['tool_result', ToolResultBlock], ['thinking', ThinkingBlock]]);

/** A block of a kind the agents use, in that kind's shape; any other kind (an image, a newer API's block) is kept whole. */
export const ContentBlock = z.looseObject({ type: z.string().min(1) }).superRefine((block, ctx) => {
  const parsed = KNOWN.get(block.type)?.safeParse(block);
  for (const issue of parsed?.error?.issues ?? []) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
});
export type ContentBlock = z.infer<typeof ContentBlock>;

const Message = z.object({ role: z.enum(['user', 'assistant', 'system']), content: z.union([z.string(), z.array(ContentBlock)]) });

const tokens = z.number().int().nonnegative();

const CallTokens = z.object({ input_tokens: tokens, output_tokens: tokens, cache_read_tokens: tokens, cache_write_tokens: tokens });
export type CallTokens = z.infer<typeof CallTokens>;
const ZERO_TOKENS: CallTokens = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };

/** The model call behind a record: which model answered, and the tokens it used (absent in journals written before it was recorded). */
const Spent = z.object({ model: z.string().min(1), usage: CallTokens });

/** One change to a conversation, as the agent layer's `ConversationRecord` tells it. */
export const SessionRecord = z.discriminatedUnion('type', [
  z.object({ type: z.literal('user'), content: z.array(ContentBlock).min(1) }),
  z.object({ type: z.literal('assistant'), content: z.array(ContentBlock), spent: Spent.optional() }),
  z.object({ type: z.literal('replaced'), messages: z.array(Message), spent: Spent.optional() }),
]);
export type SessionRecord = z.infer<typeof SessionRecord>;

/**
 * A record as an agent hands it over: any blocks with a kind, since the agent layer's are the
 * SDK's types, which this layer may not name. It is checked (SessionRecord) as it is written.
 */
export type RecordDraft =
  | { type: 'user'; content: readonly { type: string }[] }
  | { type: 'assistant'; content: readonly { type: string }[]; spent?: z.infer<typeof Spent> }
  | { type: 'replaced'; messages: readonly { role: string; content: string | readonly { type: string }[] }[]; spent?: z.infer<typeof Spent> };

/** A journal's line: the record, stamped when it was written. */
export const JournalEntry = z.object({ at, record: SessionRecord });
export type JournalEntry = z.infer<typeof JournalEntry>;

/** What a session is recorded with when it starts. */
export const SessionMeta = z.object({
  id: SessionId,
  team: AgentName,
  started_at: at,
  /** The start of the human's first prompt, one line (empty when a teammate came first). */
  first_prompt: z.string(),
});
export type SessionMeta = z.infer<typeof SessionMeta>;

/** A session as `teams sessions` lists it. */
export type SessionSummary = SessionMeta & {
  /** The newest record's time (the start when there is none). */
  last_active: string;
  /** The agents with a journal, the lead first. */
  agents: string[];
  /** Records in every journal, unreadable lines not counted. */
  records: number;
  /** The tokens the session's model calls used, every agent's, by the model that answered (priced by the layers that know prices). */
  tokens_by_model: Record<string, CallTokens>;
};

/** How long a first-prompt preview is. */
export const PREVIEW_CHARS = 80;

/** The start of a prompt, as one line of at most PREVIEW_CHARS characters. */
export function promptPreview(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= PREVIEW_CHARS ? line : `${line.slice(0, PREVIEW_CHARS - 1)}…`;
}

/**
 * A session as listed, from its metadata and its agents' journals as read (agent → good
 * entries, oldest first): the agents the lead first, then by name; the newest record's time.
 */
export function sessionSummary(meta: SessionMeta, journals: ReadonlyMap<string, readonly JournalEntry[]>): SessionSummary {
  let records = 0;
  let lastActive = meta.started_at;
  const byModel: Record<string, CallTokens> = {};
  for (const entries of journals.values()) {
    records += entries.length;
    const last = entries.at(-1)?.at;
    if (last !== undefined && Date.parse(last) > Date.parse(lastActive)) lastActive = last;
    for (const { record } of entries) if (record.type !== 'user' && record.spent) byModel[record.spent.model] = addCounts(byModel[record.spent.model] ?? ZERO_TOKENS, record.spent.usage);
  }
  const agents = [...journals.keys()].sort();
  const ordered = agents.includes(LEAD) ? [LEAD, ...agents.filter((a) => a !== LEAD)] : agents;
  return { ...meta, last_active: lastActive, agents: ordered, records, tokens_by_model: byModel };
}

/**
 * A session's summary, its agents' journals read one by one with `read`; what could not be read
 * goes into `problems`. A journal that reads empty and clean is left out: its member was deleted
 * since (its journal went with it), so it is no agent of the session any more.
 */
export async function summarizeSession(
  meta: SessionMeta,
  agents: readonly string[],
  read: (agent: string) => Promise<{ entries: JournalEntry[]; problems: { ref: string; reason: string }[] }>,
  problems: { ref: string; reason: string }[],
): Promise<SessionSummary> {
  const journals = new Map<string, JournalEntry[]>();
  for (const agent of agents) {
    const journal = await read(agent);
    if (journal.entries.length === 0 && journal.problems.length === 0) continue;
    journals.set(agent, journal.entries);
    problems.push(...journal.problems);
  }
  return sessionSummary(meta, journals);
}

/** Sessions in the order `teams sessions` lists them: oldest first. */
export function byStart(a: SessionMeta, b: SessionMeta): number {
  return Date.parse(a.started_at) - Date.parse(b.started_at) || a.id.localeCompare(b.id);
}
