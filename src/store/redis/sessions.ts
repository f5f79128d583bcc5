import * as z from 'zod';
import { describeIssues, errorMessage, inertLine } from '../../lib/index.js';
import { agentNameProblem } from '../../protocol/index.js';
import { byStart, JournalEntry, SessionId, SessionMeta, summarizeSession, type RecordDraft, type SessionSummary } from '../sessions.js';
import type { JournalRead, SessionStore, StoredProblem } from '../team-store.js';
import type { RedisTeam } from './redis-team.js';
import { serverNow } from './server-clock.js';
import { allEntries, readRecord, RECORD_FIELD } from './stream-journal.js';

const Fields = z.record(z.string(), z.string());
const Members = z.array(z.string());
/** HSETNX, HEXISTS: 1 or 0. */
const Flag = z.number();

/**
 * Sessions on Redis: each one's metadata as JSON in one hash (the team's sessions, by id; HSETNX
 * is the claim, so of two creators of one id only one succeeds), and one stream per session and
 * agent for its journal, with a set of the agents that have one. A journal is appended to by its
 * agent's one process; records are stamped by the server's clock.
 */
export class RedisSessions implements SessionStore {
  constructor(private readonly redis: RedisTeam) {}

  private journalKey(id: string, agent: string): string {
    const problem = agentNameProblem(agent);
    if (problem) throw new Error(problem);
    return this.redis.keys.journal(SessionId.parse(id), agent);
  }

  async create(draft: Omit<SessionMeta, 'team'>): Promise<SessionMeta> {
    const meta = SessionMeta.parse({ ...draft, team: this.redis.team });
    const created = Flag.parse(await this.redis.client.sendCommand(['HSETNX', this.redis.keys.sessions, meta.id, JSON.stringify(meta)]));
    if (created !== 1) throw new Error(`session ${meta.id} already exists`);
    return meta;
  }

  async get(id: string): Promise<SessionMeta | undefined> {
    if (!SessionId.safeParse(id).success) return undefined;
    const text = z.string().nullable().parse(await this.redis.client.sendCommand(['HGET', this.redis.keys.sessions, id]));
    if (text === null) return undefined;
    const read = this.metaOf(id, text);
    if (!read.ok) throw new Error(read.reason);
    return read.meta;
  }

  async list(): Promise<{ sessions: SessionSummary[]; problems: StoredProblem[] }> {
    const all = Fields.parse(await this.redis.client.sendCommand(['HGETALL', this.redis.keys.sessions]));
    const sessions: SessionSummary[] = [];
    const problems: StoredProblem[] = [];
    for (const [id, text] of Object.entries(all)) {
      const read = this.metaOf(id, text);
      if (!read.ok) {
        problems.push({ ref: `${this.redis.keys.sessions} ${inertLine(id)}`, reason: read.reason });
        continue;
      }
      const agents = Members.parse(await this.redis.client.sendCommand(['SMEMBERS', this.redis.keys.sessionAgents(id)]));
      const named = agents.filter((name) => agentNameProblem(name) === undefined);
      sessions.push(await summarizeSession(read.meta, named, (agent) => this.read(id, agent), problems));
    }
    sessions.sort(byStart);
    return { sessions, problems };
  }

  async append(id: string, agent: string, record: RecordDraft): Promise<void> {
    const key = this.journalKey(id, agent);
    const exists = Flag.parse(await this.redis.client.sendCommand(['HEXISTS', this.redis.keys.sessions, id]));
    if (exists !== 1) throw new Error(`no session ${id} in team '${this.redis.team}'`);
    // A malformed record is the caller's bug: it throws here, and nothing is written.
    const entry = JournalEntry.parse({ at: (await serverNow(this.redis.client)).toISOString(), record });
    // Not sent again after a dropped connection: a record stored twice would be replayed twice on resume.
    const multi = this.redis.client.multi();
    multi.addCommand(['XADD', key, '*', RECORD_FIELD, JSON.stringify(entry)]);
    multi.addCommand(['SADD', this.redis.keys.sessionAgents(id), agent]);
    await multi.exec();
  }

  async read(id: string, agent: string): Promise<JournalRead> {
    const key = this.journalKey(id, agent);
    const read: JournalRead = { entries: [], problems: [] };
    for (const entry of await allEntries(this.redis, key)) {
      const record = readRecord(key, entry, JournalEntry);
      if (record.ok) read.entries.push(record.value);
      else read.problems.push({ ref: record.ref, reason: record.reason });
    }
    return read;
  }

  private metaOf(id: string, text: string): { ok: true; meta: SessionMeta } | { ok: false; reason: string } {
    const where = `session ${inertLine(id)} in ${this.redis.keys.sessions}`;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      return { ok: false, reason: `${where} is not valid JSON (${inertLine(errorMessage(error))})` };
    }
    const parsed = SessionMeta.safeParse(raw);
    if (!parsed.success) return { ok: false, reason: `${where}: ${describeIssues(parsed.error, 'session')}` };
    if (parsed.data.id !== id) return { ok: false, reason: `${where} names another session (${parsed.data.id})` };
    return { ok: true, meta: parsed.data };
  }
}
