import type { Subscription, Transport } from './transport.js';
import type { RequestKind, TransitionResult, RequestRecord, RequestState } from '../protocol/index.js';
import type { AuditDraft, AuditEntry } from './audit.js';
import type { CreateTeamOptions, TeamConfig } from './roster.js';
import type { LogLine } from './agent-log.js';
import type { JournalEntry, RecordDraft, SessionMeta, SessionSummary } from './sessions.js';
import type { HostStore } from './hosts.js';
import type { Task, TaskBoardStatus, TaskChange, TaskDraft, TaskResult } from './tasks.js';

export type { Subscription } from './transport.js';

/**
 * Everything the processes of one team share: the roster, the request journal, the audit log
 * and the mailboxes. Processes reach shared state only through this (each opens one store), so
 * another backend (Redis Streams, for a team spanning machines) replaces it whole; the
 * conformance suite (test/store/conformance.ts) says what any backend must do.
 *
 * No type here names a path: where things are kept is the backend's business. Any call may
 * cross a network, so every call is asynchronous. Trust is not kept here: a teammate learns
 * the lead's key from the process that starts it, and every message is believed from its
 * signature alone, so a store that anyone can write to can forge nothing.
 */
export interface TeamStore {
  /** The team's name. */
  readonly team: string;
  readonly roster: RosterStore;
  readonly requests: RequestStore;
  readonly audit: AuditLog;
  /** The members' mailboxes. */
  readonly mailboxes: Transport;
  /** The sessions: each agent's conversation, journaled as it goes. */
  readonly sessions: SessionStore;
  /** What each teammate's loop did, as it did it: for watching it (the REPL's view, `teams logs`). */
  readonly agentLogs: AgentLogs;
  /** The task board: work to split, claim and report on. */
  readonly tasks: TaskStore;
  /** Machines other than the lead's that run teammates (`teams host`): their beats, orders and reports, all untrusted. */
  readonly hosts: HostStore;
  /**
   * Delete what is kept under `agent`'s name for its processes to exchange: its mailbox (waiting,
   * handled and set-aside messages) and its agent log, so a member added later under the same
   * name starts with nothing of the old one's. Its roster entry goes by the roster's own update
   * (removeMember); what the team keeps as history (its requests, tasks, audit entries and
   * session journals) stays until the team is deleted. A name with nothing kept is no error.
   * Its consumer and followers must be stopped first: the member has left.
   */
  deleteMember(agent: string): Promise<void>;
  /**
   * Delete everything of the team the store keeps: afterwards `roster.load()` is undefined and
   * every journal, mailbox and log reads empty, as for a team never created. Other teams are
   * untouched. The team's processes must be stopped first.
   */
  deleteTeam(): Promise<void>;
  /**
   * The store's clock: the time every process of the team compares its timestamps by
   * (deadlines, staleness, heartbeats). The file store's is this machine's; a store shared by
   * several machines gives one clock for all of them (the Redis store: Redis TIME).
   */
  now(): Promise<Date>;
  /** Let go of whatever the store holds open (a connection); close its watches first. */
  close(): Promise<void>;
}

/** A networked store's connection (Redis) as its owner says it to a person: down, retrying; or back. */
export type StoreStatus = { state: 'down'; reason: string; retryInMs: number } | { state: 'up' };

/** What a watch could not read (another writer's record, torn or foreign): the watch goes on. */
export type WatchProblem = (error: Error) => void;

export interface RosterStore {
  /** The roster, or undefined if the team does not exist. One that cannot be read is an error saying why. */
  load(): Promise<TeamConfig | undefined>;
  /** The roster, created first (the lead alone) if the team does not exist; several processes may race to. */
  ensure(options?: CreateTeamOptions): Promise<TeamConfig>;
  /**
   * Change the roster with no concurrent update lost. `mutate` changes the draft in place, or
   * throws to refuse (then nothing is written). It must be synchronous and do nothing else: a
   * store may run it again on a fresh draft when another writer got in first. The result is
   * validated before it is kept. Refused when the team does not exist.
   */
  update<T>(mutate: (draft: TeamConfig) => T): Promise<{ config: TeamConfig; result: T }>;
  /**
   * The roster once the watch is ready, then again after every change, in order. A call may
   * bring an unchanged roster: it says "look again", not what changed.
   */
  watch(listener: (config: TeamConfig) => void, onProblem: WatchProblem): Promise<Subscription>;
}

/** A request as it is opened: pending, with its deadline already decided by the caller. */
export type NewRequest = Pick<RequestRecord, 'request_id' | 'kind' | 'from' | 'to' | 'created_at' | 'deadline_at' | 'summary' | 'tool'>;

/** Every given field must match; `involving` matches the requester or the one asked. */
export type RequestFilter = { state?: RequestState; kind?: RequestKind; involving?: string };

export interface RequestStore {
  /**
   * Record a new pending request. Throws on invalid fields, or on a request_id already taken,
   * also by an open racing in another process (the first one stands).
   */
  open(request: NewRequest): Promise<RequestRecord>;
  /**
   * Move a pending request to a final state, as the lifecycle allows. When processes race to
   * decide the same request, exactly one wins everywhere; the others are refused (not thrown)
   * with what happened instead.
   */
  transition(requestId: string, to: RequestState, by: string, note?: string): Promise<TransitionResult>;
  get(requestId: string): Promise<RequestRecord | undefined>;
  /** Matching requests, oldest first. */
  list(filter?: RequestFilter): Promise<RequestRecord[]>;
  /** Every request once the watch is ready, then again after every change, in order (possibly unchanged). */
  watch(listener: (records: RequestRecord[]) => void, onProblem: WatchProblem): Promise<Subscription>;
}

/** A stored record that could not be read: skipped, and reported with where to find it (`ref`, opaque). */
export type StoredProblem = { ref: string; reason: string };

export type AuditBatch = { entries: AuditEntry[]; problems: StoredProblem[] };

export interface AuditLog {
  /** Append one entry, stamped now. A malformed entry is the caller's bug: it throws, and nothing is written. */
  append(entry: AuditDraft): Promise<AuditEntry>;
  /** The whole log, oldest first; unreadable records are reported, never fatal. */
  read(): Promise<AuditBatch>;
  /** The whole log, then every later append, each once and in order. */
  follow(listener: (batch: AuditBatch) => void): Promise<Subscription>;
}

/** An agent's journal as read back: its good records in order, and the lines left out. */
export type JournalRead = { entries: JournalEntry[]; problems: StoredProblem[] };

/**
 * The sessions of the team (src/store/sessions.ts): one journal per agent and session, only
 * ever appended to, by that agent's one process, before the model call that uses the record.
 */
export interface SessionStore {
  /** Record a new session. Throws on an id already taken. */
  create(meta: Omit<SessionMeta, 'team'>): Promise<SessionMeta>;
  get(id: string): Promise<SessionMeta | undefined>;
  /** Every session, oldest first, with what its journals hold; unreadable sessions are reported. */
  list(): Promise<{ sessions: SessionSummary[]; problems: StoredProblem[] }>;
  /**
   * Add a record to `agent`'s journal, stamped now. Throws when the session does not exist or
   * the record is malformed (the caller's bug: nothing is written). A line torn by a writer
   * killed mid-append is never glued onto: it stays one bad line, reported when read.
   */
  append(id: string, agent: string, record: RecordDraft): Promise<void>;
  /** `agent`'s journal, oldest first (empty when it has none); lines that cannot be read are left out and reported. */
  read(id: string, agent: string): Promise<JournalRead>;
}

/**
 * Where a reader of an agent's log got to. Opaque: only the store that gave it reads it (the
 * file store's names a byte offset, another store's an entry id); a cursor the store cannot
 * read, garbage or another store's, is refused with an error saying so.
 */
export type LogCursor = string;

/**
 * A batch of an agent's log: complete lines only (one still being written comes in a later
 * batch), and where to go on from. `skipped`: lines were left out before the first (see `tail`).
 */
export type LogBatch = { lines: LogLine[]; next: LogCursor; skipped: boolean };

/** Where a read of an agent's log starts: after `from` (the start without it), or, from the start, at the last `tail` lines. */
export type LogReadOptions = { from?: LogCursor; tail?: number };

/**
 * Each teammate's log (src/store/agent-log.ts): its events, appended as they happen by its own
 * process or by whoever carries its output (its supervisor, a host). Reading never changes it,
 * and any number of readers may follow it.
 */
export interface AgentLogs {
  /**
   * Add `lines` to `agent`'s log, in order, as one whole: a reader sees all of them or none,
   * never another writer's lines between them. Each is one complete line without its line
   * break (one that holds a line break is refused); a caller carrying a process's output splits
   * it at line breaks and flushes a trailing partial line when the process exits. Several
   * writers may append at once. Blank lines carry nothing: a store may leave them out.
   */
  append(agent: string, lines: readonly string[]): Promise<void>;
  /**
   * The lines after `from` (from the start without it). With `tail`, a read from the start
   * gives at most the last `tail` lines, and says `skipped` if it left any out: a day's log is
   * long, and a view shows only its end. An agent with no log yet has an empty one.
   */
  read(agent: string, options?: LogReadOptions): Promise<LogBatch>;
  /**
   * What `read` gives with the same options (possibly empty), then every later batch, each
   * line once and in order, until the subscription is closed.
   */
  follow(agent: string, listener: (batch: LogBatch) => void, options?: LogReadOptions): Promise<Subscription>;
}

/** Every given field must match. */
export type TaskFilter = { status?: TaskBoardStatus; owner?: string };

/**
 * The team's task board (src/store/tasks.ts holds its rules). Any process may create, claim
 * and change tasks at once; when several race for the same task, exactly one wins everywhere,
 * and the others are told what happened instead (who has it).
 */
export interface TaskStore {
  /** A new pending task with the next free id. Throws on bad fields, unknown blockers or an owner that is not a name. */
  create(draft: TaskDraft, by: string): Promise<Task>;
  /** Claim `id` for `by`, or, without `id`, the next task `by` may claim (assigned to it first, then unowned, oldest first). */
  claim(by: string, id?: string): Promise<TaskResult>;
  /** Change a task's status, owner, result or blockers, as the rules allow. */
  update(id: string, change: TaskChange, by: string): Promise<TaskResult>;
  get(id: string): Promise<Task | undefined>;
  /** Matching tasks, by id. */
  list(filter?: TaskFilter): Promise<Task[]>;
  /** Put every in_progress task of `owner` back to pending, unowned, with `note`: it crashed or left. The tasks released. */
  releaseAllOf(owner: string, note: string, by: string): Promise<Task[]>;
  /**
   * The board's stored records that could not be read (torn, corrupt, foreign), each with where
   * it is (`ref`, opaque) and why, in the order found. Never fatal: the board goes on without
   * them. A record found bad stays in the list, so a watcher can tell the new ones by `ref`.
   * A task read back blocked by a task not on the board (its record set aside) is kept, still
   * blocked, and reported here too, naming both.
   */
  problems(): Promise<StoredProblem[]>;
  /** Every task once the watch is ready, then again after every change, in order (possibly unchanged). */
  watch(listener: (tasks: Task[]) => void, onProblem: WatchProblem): Promise<Subscription>;
}
