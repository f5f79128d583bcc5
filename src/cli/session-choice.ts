import { newSessionId, LEAD } from '../protocol/index.js';
import type { SessionSummary, TeamStore } from '../store/index.js';
import { quoted } from '../lib/index.js';
import type { SessionChoice } from '../lead/index.js';
import { UsageError } from './errors.js';

export type SessionFlags = { continue?: boolean; resume?: string };

/** The most recent session the lead took part in, by its last record. */
function mostRecent(sessions: readonly SessionSummary[]): SessionSummary | undefined {
  return sessions
    .filter((s) => s.agents.includes(LEAD))
    .reduce<SessionSummary | undefined>((best, s) => (best === undefined || Date.parse(s.last_active) >= Date.parse(best.last_active) ? s : best), undefined);
}

/**
 * The session a lead start runs in: a new one, the team's most recent (--continue), or the one
 * named (--resume <id>). One that cannot be found is a usage error saying where ids are listed.
 */
export async function chooseSession(store: TeamStore, flags: SessionFlags): Promise<SessionChoice> {
  if (flags.continue && flags.resume !== undefined) throw new UsageError('--continue and --resume <id> both pick a session: give one of them');
  const howToList = `\`teams sessions\` lists the sessions of team '${store.team}'`;
  if (flags.resume !== undefined) {
    const meta = await store.sessions.get(flags.resume);
    if (!meta) throw new UsageError(`no session ${quoted(flags.resume)} in team '${store.team}'; ${howToList}`);
    return { id: meta.id, resume: true };
  }
  if (flags.continue) {
    const latest = mostRecent((await store.sessions.list()).sessions);
    if (!latest) throw new UsageError(`team '${store.team}' has no earlier session of the lead to continue; start one with \`teams\` or \`teams run <prompt>\``);
    return { id: latest.id, resume: true };
  }
  return { id: newSessionId(), resume: false };
}
