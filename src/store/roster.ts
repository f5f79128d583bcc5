import * as z from 'zod';
import { Refused, inertLine, quoted, describeIssues } from '../lib/index.js';
import { TaskId } from './tasks.js';
import { SessionId } from './sessions.js';
import { PermissionMode, RequestKindSchema, Usage, AgentName, agentNameProblem, LEAD, memberHint } from '../protocol/index.js';

/**
 * The roster: the team's members, their status and usage, and the team's settings. Several
 * processes (lead, teammates, the CLI) change it; how a change stays whole is the store's
 * business (team-store.ts). Here: its schema, and what may be read from it.
 */

export const MEMBER_STATUSES = [
  'registered', // on the roster, no process
  'starting',
  'working',
  'idle',
  'awaiting_approval',
  'shutting_down',
  'shutdown',
  'crashed',
] as const;
export const MemberStatus = z.enum(MEMBER_STATUSES);
export type MemberStatus = z.infer<typeof MemberStatus>;

const timestamp = z.iso.datetime({ offset: true });

/**
 * Running totals of a member's model usage. `cost_usd` adds up each turn priced as the model
 * that answered it (a member respawned on another model keeps its earlier turns' price):
 * null once a turn's model had no known price, absent in totals kept before it was recorded.
 */
export const UsageTotals = Usage.required().extend({ cost_usd: z.number().nonnegative().nullable().optional() });
export type UsageTotals = z.infer<typeof UsageTotals>;

/**
 * A teammate's own git worktree (spawned with isolation "worktree"): its directory, its branch,
 * the commit it started from, and the repository (the lead's) it belongs to. Kept after the
 * teammate stops while its branch holds unmerged work, so the lead, `teams status` and a
 * respawn find it.
 */
export const WorktreeRecord = z.object({
  path: z.string().min(1),
  branch: z.string().min(1),
  base: z.string().regex(/^[0-9a-f]{40,64}$/, 'base is not a commit id'),
  repo: z.string().min(1),
});
export type WorktreeRecord = z.infer<typeof WorktreeRecord>;

export const Member = z.object({
  name: AgentName,
  role: z.string().min(1, 'role is empty'),
  status: MemberStatus,
  pid: z.number().int().positive().nullable(),
  /**
   * When the process with `pid` started (proc-start.ts), written with the pid: the two name one
   * process for good, so a pid reused after a crash or a reboot is not taken for the member.
   * Absent where the start time cannot be read (no procfs): the pid alone decides then.
   */
  pid_start: z.string().min(1).optional(),
  model: z.string().min(1).nullable(),
  created_at: timestamp,
  status_since: timestamp,
  usage: UsageTotals.optional(),
  /**
   * When a lead last spawned it in plan mode; absent when spawned without. Kept here, not in the
   * lead's memory, so that a respawn by any later lead puts it back in plan mode until a plan it
   * submitted since is approved: a crash and a restart are no way out of the plan approval. Only
   * the lead's and the teammates' harness code write the roster (never a model's commands: the
   * team's state is hidden from every sandbox), and only the lead's spawn writes this.
   */
  plan_mode_since: timestamp.optional(),
  /**
   * The permission mode it works in: written by the lead's spawn, then by the teammate's harness
   * as it changes (a mode_set, an approved plan). Shown in the team panel and `teams status`; a
   * respawn starts it in this mode again. Absent in rosters written before it was recorded.
   */
  permission_mode: PermissionMode.optional(),
  worktree: WorktreeRecord.optional(),
  /**
   * The host it runs on (`teams host --name`), written by the lead's spawn; absent: the lead's
   * machine. Its pid is a pid there, so its liveness is the host's heartbeat (member-liveness.ts);
   * a respawn places it on the same host again.
   */
  host: AgentName.optional(),
  /**
   * The agent definition (`.teams/agents/<name>.md`) it was spawned as, written by the lead's
   * spawn; absent: none. A respawn reads that definition again for its role's prompt and tools.
   */
  agent: AgentName.optional(),
  /**
   * The board task it was spawned (or last respawned) with, written by the lead's spawn: the
   * task that is its own, which it closes with task_update when its work is done, which stays
   * its own when it exits unfinished, and which a respawn gives back to it.
   */
  task: TaskId.optional(),
  /**
   * The lead's session its conversation is journaled in, written by the lead's spawn: a respawn
   * goes on with that journal, even after the lead moved on to another session (/clear,
   * /resume). Absent in rosters written before it was recorded: the lead's session then.
   */
  session: SessionId.optional(),
});
export type Member = z.infer<typeof Member>;

/** Team names follow the agent-name rule: a store may make them directory names or keys. */
export function teamNameProblem(team: string): string | undefined {
  const problem = agentNameProblem(team);
  return problem?.replace(/agent name/g, 'team name');
}

export const TeamConfig = z
  .object({
    name: z.string().superRefine((name, ctx) => {
      const problem = teamNameProblem(name);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    created_at: timestamp,
    members: z.array(Member),
    /** Tokens the whole team may use; once spent, no new model turn or teammate starts. */
    token_budget: z.number().int().positive().optional(),
    /** How the last lead to start runs agents' commands, for a person to read (`teams status`). */
    sandbox: z.string().min(1).optional(),
    deadlines_ms: z.partialRecord(RequestKindSchema, z.number().int().positive()).optional(),
  })
  .superRefine((team, ctx) => {
    const seen = new Set<string>();
    team.members.forEach((member, index) => {
      if (seen.has(member.name)) ctx.addIssue({ code: 'custom', path: ['members', index, 'name'], message: `member '${member.name}' is listed twice` });
      seen.add(member.name);
    });
    const lead = team.members.find((m) => m.name === LEAD);
    if (!lead) ctx.addIssue({ code: 'custom', path: ['members'], message: `the team has no '${LEAD}' member` });
    else if (lead.role !== 'lead') ctx.addIssue({ code: 'custom', path: ['members'], message: `member '${LEAD}' must have role 'lead'` });
  });
export type TeamConfig = z.infer<typeof TeamConfig>;

export type CreateTeamOptions = { deadlines_ms?: TeamConfig['deadlines_ms'] };

/** The issues as one line; inert, since they may quote whatever the stored roster held. */
export function rosterIssues(error: z.ZodError): string {
  return inertLine(describeIssues(error, 'config'));
}

/** A new team's roster: the lead alone, registered. */
export function newTeam(team: string, options: CreateTeamOptions, now = new Date().toISOString()): TeamConfig {
  const lead: Member = { name: LEAD, role: 'lead', status: 'registered', pid: null, model: null, created_at: now, status_since: now };
  return { name: team, created_at: now, members: [lead], ...options };
}

export function memberNames(config: TeamConfig): string[] {
  return config.members.map((m) => m.name);
}

export function findMember(config: TeamConfig, name: string): Member | undefined {
  return config.members.find((m) => m.name === name);
}

/** The member `name`, or an error listing the closest names, since names are typed by humans. */
export function requireMember(config: TeamConfig, name: string): Member {
  const member = findMember(config, name);
  if (member) return member;
  throw new Refused(`no member named ${quoted(name)} in team '${config.name}'${memberHint(name, memberNames(config))}`);
}

/** The member `name` of the team as stored now: refused when there is no team yet, or no such member. */
export async function requireStoredMember(store: { readonly team: string; readonly roster: { load(): Promise<TeamConfig | undefined> } }, name: string): Promise<Member> {
  const team = await store.roster.load();
  if (!team) throw new Refused(`no team '${store.team}'`);
  return requireMember(team, name);
}
