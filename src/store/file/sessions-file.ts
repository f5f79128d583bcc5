import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendLines, readLines } from './jsonl.js';
import { writeFileAtomic, errnoCode, isMissing, describeIssues, errorMessage } from '../../lib/index.js';
import { namesIn } from './names-in.js';
import { agentNameProblem } from '../../protocol/index.js';
import { byStart, JournalEntry, SessionId, SessionMeta, summarizeSession, type RecordDraft, type SessionSummary } from '../sessions.js';
import type { JournalRead, SessionStore, StoredProblem } from '../team-store.js';
import { fileLayout, type FileLocation } from './layout.js';

const JOURNAL = '.jsonl';

/**
 * Sessions as files: sessions/<id>/meta.json, written once, and sessions/<id>/<agent>.jsonl,
 * each appended to by its agent's process alone. Every append starts with a newline
 * (appendLines), so a line torn by a SIGKILL mid-write stays a line of its own: the reader
 * leaves it out and names it, and the good lines around it still resume the session.
 */
export class FileSessions implements SessionStore {
  private readonly dir: string;

  constructor(private readonly location: FileLocation) {
    this.dir = fileLayout(location.root).sessions;
  }

  private sessionDir(id: string): string {
    // Parsed before it becomes a path: an id is never `..` or a slash.
    return join(this.dir, SessionId.parse(id));
  }

  private journal(id: string, agent: string): string {
    const problem = agentNameProblem(agent);
    if (problem) throw new Error(problem);
    return join(this.sessionDir(id), `${agent}${JOURNAL}`);
  }

  async create(draft: Omit<SessionMeta, 'team'>): Promise<SessionMeta> {
    const meta = SessionMeta.parse({ ...draft, team: this.location.team });
    const dir = this.sessionDir(meta.id);
    mkdirSync(this.dir, { recursive: true });
    try {
      // mkdir is the claim: of two processes creating the same id, one gets EEXIST.
      mkdirSync(dir);
    } catch (error) {
      if (errnoCode(error) === 'EEXIST') throw new Error(`session ${meta.id} already exists`);
      throw error;
    }
    writeFileAtomic(join(dir, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
    return meta;
  }

  async get(id: string): Promise<SessionMeta | undefined> {
    if (!SessionId.safeParse(id).success) return undefined;
    const read = this.readMeta(id);
    if (read.ok) return read.meta;
    if (read.missing) return undefined;
    throw new Error(read.reason);
  }

  async list(): Promise<{ sessions: SessionSummary[]; problems: StoredProblem[] }> {
    const sessions: SessionSummary[] = [];
    const problems: StoredProblem[] = [];
    for (const id of namesIn(this.dir)) {
      if (!SessionId.safeParse(id).success) continue;
      const read = this.readMeta(id);
      if (!read.ok) {
        problems.push({ ref: join(this.dir, id, 'meta.json'), reason: read.missing ? 'missing (the session was never fully created)' : read.reason });
        continue;
      }
      sessions.push(await summarizeSession(read.meta, this.agentsOf(id), (agent) => this.read(id, agent), problems));
    }
    sessions.sort(byStart);
    return { sessions, problems };
  }

  async append(id: string, agent: string, record: RecordDraft): Promise<void> {
    const entry = JournalEntry.parse({ at: new Date().toISOString(), record });
    const path = this.journal(id, agent);
    if (!existsSync(join(this.sessionDir(id), 'meta.json'))) throw new Error(`no session ${id} in team '${this.location.team}'`);
    appendLines(path, [entry]);
  }

  async read(id: string, agent: string): Promise<JournalRead> {
    const path = this.journal(id, agent);
    const read = readLines(path, JournalEntry);
    const problems = read.problems.map((problem) => ({ ref: `${path} line ${problem.line}`, reason: problem.reason }));
    // A last line with no newline: its writer was killed mid-append (only the agent's own
    // process writes here, and it is not running while its journal is read to resume it).
    if (read.tornTail) problems.push({ ref: `${path} last line`, reason: 'torn: its writer stopped mid-line; left out' });
    return { entries: read.records, problems };
  }

  /** The agents with a journal in session `id`. */
  private agentsOf(id: string): string[] {
    return namesIn(join(this.dir, id))
      .filter((name) => name.endsWith(JOURNAL))
      .map((name) => name.slice(0, -JOURNAL.length))
      .filter((name) => agentNameProblem(name) === undefined);
  }

  private readMeta(id: string): { ok: true; meta: SessionMeta } | { ok: false; missing: boolean; reason: string } {
    const path = join(this.dir, id, 'meta.json');
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      return { ok: false, missing: isMissing(error), reason: `${path}: ${errorMessage(error)}` };
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return { ok: false, missing: false, reason: `${path} is not valid JSON` };
    }
    const parsed = SessionMeta.safeParse(raw);
    if (!parsed.success) return { ok: false, missing: false, reason: `${path}: ${describeIssues(parsed.error, 'session')}` };
    if (parsed.data.id !== id) return { ok: false, missing: false, reason: `${path} names another session (${parsed.data.id})` };
    return { ok: true, meta: parsed.data };
  }
}
