import { readAgentJournal, sessionSpending } from '../agent/index.js';
import { spentByModel, tokensOf, type Spent } from '../model/index.js';
import { LEAD } from '../protocol/index.js';
import type { Member, SessionSummary } from '../store/index.js';
import type { ReplStore } from './runtime.js';
import { resumedItems } from './state/resumed.js';
import type { NewItem, ResumeChoice } from './state/types.js';

/** How many of the lead's sessions /resume lists, newest first. */
const SHOWN = 10;

/** The lead's sessions, most recently active first (the numbers /resume lists and takes). */
async function recentLeadSessions(store: ReplStore): Promise<SessionSummary[]> {
  if (!store.sessions) return [];
  const { sessions } = await store.sessions.list();
  return sessions.filter((s) => s.agents.includes(LEAD)).sort((a, b) => Date.parse(b.last_active) - Date.parse(a.last_active)).slice(0, SHOWN);
}

/** `/resume` alone: the lead's recent sessions for its picker, newest first (the numbers `/resume <n>` takes), the one it is in marked. */
export async function resumeChoices(store: ReplStore, current: string | undefined): Promise<ResumeChoice[]> {
  return (await recentLeadSessions(store)).map((s) => ({
    id: s.id,
    lastActive: s.last_active.slice(0, 16).replace('T', ' '),
    prompt: s.first_prompt === '' ? '(no prompt)' : `"${s.first_prompt}"`,
    records: s.records,
    tokens: tokensOf(spentByModel(s.tokens_by_model).usage),
    current: s.id === current,
  }));
}

/** The session `/resume <n|id>` names: a number from the list, or an id as given (the lead checks it exists). */
export async function resumeTarget(store: ReplStore, given: string): Promise<string> {
  if (!/^\d+$/.test(given)) return given;
  const sessions = await recentLeadSessions(store);
  const chosen = sessions[Number(given) - 1];
  if (!chosen) throw new Error(`no session number ${given} (/resume lists ${sessions.length})`);
  return chosen.id;
}

/**
 * The session the lead goes on with: its conversation as the transcript's lines (as at
 * --resume), and what each member spent in it, for the header's totals.
 */
export async function resumedSession(store: ReplStore, id: string, members: readonly Member[]): Promise<{ items: NewItem[]; spent: Record<string, Spent> }> {
  if (!store.sessions) return { items: [], spent: {} };
  const { earlier } = await readAgentJournal(store.sessions, id, LEAD);
  return { items: resumedItems(id, earlier), spent: await sessionSpending(store.sessions, id, members.map((m) => m.name)) };
}
