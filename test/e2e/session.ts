import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCli, runCli, type CliResult } from '../helpers/cli.js';
import { REPO_ROOT, type Child } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { teamPaths, type TeamPaths } from '../../src/team/paths.js';
import type { Member } from '../../src/store/roster.js';
import type { TeamStore } from '../../src/store/team-store.js';
import type { RequestRecord } from '../../src/protocol/request-records.js';
import type { RequestKind } from '../../src/protocol/messages.js';
import type { AuditEntry } from '../../src/store/audit.js';
import { randomBytes } from 'node:crypto';
import { openStore } from '../../src/store/open-store.js';
import { LazyRedisForFile } from '../helpers/redis-server.js';

/** Which store a session's processes share: the file store under its --home, or Redis. */
export type SessionStore = 'file' | 'redis';

/** The stores the end-to-end protocol tests run on (issue 21: both). */
export const SESSION_STORES: readonly SessionStore[] = ['file', 'redis'];

// One redis-server per test file, started by the first Redis session and stopped in the file's
// `after`: created here, at load time, so its hook is the importing file's.
const redisForFile = new LazyRedisForFile();

/**
 * The team, and the environment that names its store to every process of the session (the lead
 * and the human's CLI commands; the lead hands it on to its teammates): by environment only,
 * never argv, as a Redis URL may carry a password. On Redis, each session is a team of its own on
 * the file's one server.
 */
async function storeEnvironment(store: SessionStore, team: string): Promise<Record<string, string>> {
  if (store === 'file') return team === 'default' ? {} : { TEAMS_TEAM: team };
  return { TEAMS_STORE: await redisForFile.url(), TEAMS_TEAM: team };
}

/** The team a session runs: the one asked for, else the file store's default or, on Redis, a fresh one. */
function sessionTeam(options: SessionOptions): string {
  if (options.team !== undefined) return options.team;
  return options.store === 'redis' ? `e2e-${randomBytes(4).toString('hex')}` : 'default';
}

export type SessionOptions = {
  prompt?: string;
  /** Rules put before the demo script's own, so they win: each test's scenario, as data. */
  extraRules?: unknown[];
  /** Top-level script fields over the demo's own (its context_window, say). */
  scriptFields?: Record<string, unknown>;
  planReviewer?: 'human' | 'lead';
  deadlinesMs?: Partial<Record<RequestKind, number>>;
  graceMs?: number;
  extraArgs?: string[];
  /**
   * Where the state lies against the agents' working directory: inside it (`./.teams`, the
   * default for a real project), apart from it, or around it (the offline scratch workspace).
   */
  layout?: 'workdir-in-state' | 'state-in-workdir' | 'apart';
  env?: Record<string, string>;
  /** Go on in this state root (an earlier TeamSession's `home`, whose owner cleans it up) rather than a fresh one. */
  home?: string;
  /** The file store (the default) or Redis (this file's redis-server, a fresh team). */
  store?: SessionStore;
  /** Go on in this team (an earlier TeamSession's `team`, on the same store) rather than a fresh one. */
  team?: string;
};

/** A state root and a working directory for one session, laid out as asked. */
function lay(layout: SessionOptions['layout']): { home: string; workdir?: string; cleanup: () => void } {
  if (layout === undefined || layout === 'workdir-in-state') return tempHome('teams-e2e-');
  const base = mkdtempSync(join(tmpdir(), 'teams-e2e-'));
  const cleanup = () => rmSync(base, { recursive: true, force: true });
  const home = layout === 'state-in-workdir' ? join(base, '.teams') : join(base, 'state');
  const workdir = layout === 'state-in-workdir' ? base : join(base, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(workdir, { recursive: true });
  return { home, workdir, cleanup };
}

type JsonEvent = { type: string; [key: string]: unknown };

/**
 * A real team: `teams run --offline --jsonl` as a child process with its teammates, the
 * offline model on loopback, and the human acting through the real CLI from "another shell".
 */
export class TeamSession {
  readonly paths: TeamPaths;
  /** The team's shared state, as the human's other terminal would read it. */
  readonly store: TeamStore;
  readonly lead: Child;
  private readonly cleanupHome: () => void;

  /** Where the agents work (their tools' working directory). */
  readonly workdir: string;

  private constructor(
    readonly home: string,
    cleanup: () => void,
    lead: Child,
    workdir: string | undefined,
    store: TeamStore,
    team: string,
    private readonly env: Record<string, string>,
  ) {
    this.paths = teamPaths(home, team);
    this.store = store;
    this.cleanupHome = cleanup;
    this.lead = lead;
    this.workdir = workdir ?? this.paths.workspace;
  }

  /** Set up the state and the working directory first (files the scenario needs), then start. */
  static prepare(options: SessionOptions = {}): { home: string; workdir: string; start: () => Promise<TeamSession> } {
    const laid = lay(options.layout);
    const team = sessionTeam(options);
    const workdir = laid.workdir ?? teamPaths(laid.home, team).workspace;
    mkdirSync(workdir, { recursive: true });
    return { home: laid.home, workdir, start: () => TeamSession.begin({ ...options, team }, laid) };
  }

  static start(options: SessionOptions = {}): Promise<TeamSession> {
    return TeamSession.begin(options, options.home === undefined ? lay(options.layout) : { home: options.home, cleanup: () => undefined });
  }

  private static async begin(options: SessionOptions, laid: { home: string; workdir?: string; cleanup: () => void }): Promise<TeamSession> {
    const { home, cleanup } = laid;
    const team = sessionTeam(options);
    const env = { ...(await storeEnvironment(options.store ?? 'file', team)), ...options.env };
    const store = await openStore(env.TEAMS_STORE, { home, team });
    await store.roster.ensure();
    if (options.deadlinesMs) {
      const deadlines = options.deadlinesMs;
      await store.roster.update((config) => {
        config.deadlines_ms = deadlines;
      });
    }
    const args = ['run', '--offline', '--jsonl', '--grace-ms', String(options.graceMs ?? 3000), '--plan-reviewer', options.planReviewer ?? 'human'];
    if (laid.workdir) args.push('--workdir', laid.workdir);
    args.push(...(options.extraArgs ?? []));
    if (options.extraRules || options.scriptFields) {
      const demo = JSON.parse(readFileSync(join(REPO_ROOT, 'prompts', 'offline', 'demo.json'), 'utf8')) as { rules: unknown[] };
      const script = join(home, 'script.json');
      writeFileSync(script, JSON.stringify({ ...demo, ...options.scriptFields, rules: [...(options.extraRules ?? []), ...demo.rules] }));
      args.push('--script', script);
    }
    args.push(options.prompt ?? 'Write a short note about our build cache');
    return new TeamSession(home, cleanup, startCli(home, args, env), laid.workdir, store, team, env);
  }

  /** Every event `teams run --jsonl` has printed so far. */
  events(): JsonEvent[] {
    return this.lead
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as JsonEvent);
  }

  async member(name: string): Promise<Member | undefined> {
    return (await this.store.roster.load())?.members.find((m) => m.name === name);
  }

  async memberStatus(name: string, status: Member['status'], timeoutMs = 15_000): Promise<Member> {
    let last: Member | undefined;
    try {
      return await waitFor(async () => {
        last = await this.member(name);
        return last?.status === status ? last : undefined;
      }, `${name} to be ${status}`, timeoutMs);
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)} (is ${last?.status}); lead stderr: ${this.lead.stderr().slice(-500)}`);
    }
  }

  requests(): Promise<RequestRecord[]> {
    return this.store.requests.list();
  }

  /** Approve the plan and both permissions of the demo scenario, in the order they come. */
  async approveDemo(): Promise<void> {
    const seen: string[] = [];
    for (const kind of ['plan', 'permission', 'permission'] as const) {
      const request = await this.pending(kind, seen);
      seen.push(request.request_id);
      const approved = await this.cli(['approve', request.request_id]);
      if (approved.code !== 0) throw new Error(`teams approve ${request.request_id} exited ${approved.code}: ${approved.stderr}`);
    }
  }

  /** The oldest pending request of a kind, once there is one. */
  async pending(kind: RequestKind, after: readonly string[] = []): Promise<RequestRecord> {
    return waitFor(
      async () => (await this.requests()).find((r) => r.kind === kind && r.state === 'pending' && !after.includes(r.request_id)),
      `a pending ${kind} request; lead stderr: ${this.lead.stderr().slice(-500)}`,
      15_000,
    );
  }

  async audit(): Promise<AuditEntry[]> {
    return (await this.store.audit.read()).entries;
  }

  cli(args: string[]): Promise<CliResult> {
    return runCli(this.home, args, this.env);
  }

  /** The lead's exit; a lead still running after `ms` fails the test (saying what it last wrote) rather than hang it. */
  async exited(ms = 90_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the lead did not exit within ${ms} ms; its stderr ends: ${this.lead.stderr().slice(-500)}`)), ms);
    });
    try {
      return await Promise.race([this.lead.exited, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The team's name in its store. */
  get team(): string {
    return this.paths.team;
  }

  async cleanup(): Promise<void> {
    await this.store.close();
    this.cleanupHome();
  }
}

/** A task notification the lead received, with who sent it. */
export type Notified = { task_id: string; status: string; summary: string; result?: string; from: string };

/** The task notifications the lead received, in the order `teams run --jsonl` printed them. */
export function taskNotifications(session: TeamSession): Notified[] {
  return session
    .events()
    .filter((e) => e.type === 'message')
    .map((e) => e.envelope as { type: string } & Notified)
    .filter((envelope) => envelope.type === 'task_notification');
}
