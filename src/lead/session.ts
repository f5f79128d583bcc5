import { type ConversationRecord, type RecordSink, journalSink, readAgentJournal, type OpenedConversation } from '../agent/index.js';
import type { Spent } from '../model/index.js';
import { LEAD } from '../protocol/index.js';
import { promptPreview, type SessionStore } from '../store/index.js';
import { Refused } from '../lib/index.js';

/** Which session a lead runs in: a new one, or an earlier one resumed (--continue, --resume). */
export type SessionChoice = { id: string; resume: boolean };

/** The lead's session as it started: resumed or new, and what was read back of it. */
export type LeadSessionStart = { id: string; resumed: boolean } & Pick<OpenedConversation, 'earlier' | 'problems'> & {
  /** What the lead put right, as it started, of what an earlier lead left behind (lead-recovery.ts): a line each, for the human. */
  recovered: string[];
  /** What each agent spent in the session before this start, as its journal records it (nothing for a new session). */
  spent: Record<string, Spent>;
  /** What the human must know of how the lead started: a setting passed over (a project's defaultMode of bypass), a line each. */
  notices: string[];
};

/**
 * The lead's session. A new one is recorded only once there is something in it: at the lead's
 * first record (the human's first prompt, which becomes its preview) or at the first
 * teammate started, whichever comes first. A REPL opened and left at once leaves no session.
 */
export class LeadSession {
  private created: Promise<unknown> | undefined;
  private startedAt = new Date().toISOString();
  private journal: RecordSink;
  readonly sink: RecordSink;

  constructor(
    private readonly sessions: SessionStore,
    public choice: SessionChoice,
  ) {
    if (choice.resume) this.created = Promise.resolve();
    this.journal = journalSink(sessions, choice.id, LEAD);
    this.sink = async (record) => {
      await this.ensure(firstText(record));
      await this.journal(record);
    };
  }

  get id(): string {
    return this.choice.id;
  }

  /** A new session from here on (/clear): recorded, as any new one, at its first record. */
  restart(id: string): void {
    this.choice = { id, resume: false };
    this.created = undefined;
    this.startedAt = new Date().toISOString();
    this.journal = journalSink(this.sessions, id, LEAD);
  }

  /**
   * An earlier session from here on (/resume): its lead journal, read back (lines that cannot be
   * read are left out), for the conversation to go on from; new records go on in it.
   */
  async resumeInto(id: string): Promise<Pick<OpenedConversation, 'earlier' | 'problems'>> {
    if (!(await this.sessions.get(id))) throw new Refused(`no session '${id}' in this team (/resume lists them)`);
    const read = await readAgentJournal(this.sessions, id, LEAD);
    this.choice = { id, resume: true };
    this.created = Promise.resolve();
    this.journal = journalSink(this.sessions, id, LEAD);
    return read;
  }

  /** The session recorded, once; `firstPrompt` is used only by the call that records it. */
  ensure(firstPrompt = ''): Promise<unknown> {
    this.created ??= this.sessions.create({ id: this.choice.id, started_at: this.startedAt, first_prompt: promptPreview(firstPrompt) });
    return this.created;
  }
}

function firstText(record: ConversationRecord): string {
  if (record.type !== 'user') return '';
  for (const block of record.content) if (block.type === 'text') return block.text;
  return '';
}
