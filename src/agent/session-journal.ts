import { Conversation, type ConversationRecord, type RecordSink } from './conversation.js';
import { closeInterruptedTools } from './resume.js';
import type { SessionRecord, SessionStore, StoredProblem } from '../store/index.js';
import { NOTHING_SPENT, addSpent, spentOn, type Spent } from '../model/index.js';

/** Journals an agent's records in its session, each before the model call that uses it (the loop awaits it). */
export function journalSink(sessions: SessionStore, id: string, agent: string): RecordSink {
  return (record) => sessions.append(id, agent, record);
}

/**
 * Records read back from a journal, for the agent layer. The store's schema checked every
 * block (loosely: a kind it does not know is kept whole, as the API would take it back), and
 * the agent layer's block types are the SDK's, which the store may not import; this is where
 * the one is taken for the other.
 */
function asConversationRecords(records: readonly SessionRecord[]): ConversationRecord[] {
  return records as unknown as ConversationRecord[];
}

/** `agent`'s records in session `id`, as a conversation replays them; lines that cannot be read are left out and returned. */
export async function readAgentJournal(sessions: Pick<SessionStore, 'read'>, id: string, agent: string): Promise<{ earlier: ConversationRecord[]; problems: StoredProblem[] }> {
  const read = await sessions.read(id, agent);
  return { earlier: asConversationRecords(read.entries.map((entry) => entry.record)), problems: read.problems };
}

export type OpenedConversation = {
  conversation: Conversation;
  /** The records replayed (none for a fresh start). */
  earlier: ConversationRecord[];
  /** When the last of them was written. */
  lastAt: string | undefined;
  /** Journal lines left out: torn or corrupt. */
  problems: StoredProblem[];
};

/**
 * An agent's conversation in session `id`. `resume`: go on with what its journal holds (lines
 * that cannot be read are left out and returned to report). Otherwise it starts empty; a
 * journal with an earlier life in it (a teammate spawned again under its name) gets a
 * `replaced` record with nothing, so that a later resume replays only the new life.
 */
export async function openConversation(options: { sessions: SessionStore; id: string; agent: string; resume: boolean; sink: RecordSink; journalExists: boolean }): Promise<OpenedConversation> {
  const { sessions, id, agent, sink } = options;
  if (!options.journalExists) return { conversation: new Conversation({ sink }), earlier: [], lastAt: undefined, problems: [] };
  const read = await sessions.read(id, agent);
  if (!options.resume) {
    const conversation = new Conversation({ sink });
    if (read.entries.length > 0) conversation.replace([]);
    return { conversation, earlier: [], lastAt: undefined, problems: [] };
  }
  const earlier = asConversationRecords(read.entries.map((entry) => entry.record));
  const conversation = new Conversation({ sink, earlier });
  closeInterruptedTools(conversation);
  return { conversation, earlier, lastAt: read.entries.at(-1)?.at, problems: read.problems };
}

/** What the model calls behind a conversation's records used, each priced as the model that answered it. */
export function recordedSpending(records: readonly ConversationRecord[]): Spent {
  let spent = NOTHING_SPENT;
  for (const record of records) if (record.type !== 'user' && record.spent) spent = addSpent(spent, spentOn(record.spent.model, record.spent.usage));
  return spent;
}

/**
 * What each of `agents` spent in session `id`, as its journal there records it (the header's
 * totals after --continue or /resume); an agent with no journal in it is left out. Lines that
 * cannot be read are not counted: their problems are the resume's to report.
 */
export async function sessionSpending(sessions: Pick<SessionStore, 'read'>, id: string, agents: readonly string[]): Promise<Record<string, Spent>> {
  const spending: Record<string, Spent> = {};
  for (const agent of agents) {
    const { earlier } = await readAgentJournal(sessions, id, agent);
    if (earlier.length > 0) spending[agent] = recordedSpending(earlier);
  }
  return spending;
}
