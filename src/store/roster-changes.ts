import { Refused, quoted, processStartTime } from '../lib/index.js';
import { describeMemberProcess, memberIsAlive, type LivenessView } from './member-liveness.js';
import { type PermissionMode, type Usage, LEAD } from '../protocol/index.js';
import { findMember, Member, requireMember, rosterIssues, type MemberStatus, type WorktreeRecord } from './roster.js';
import type { RosterStore } from './team-store.js';

/** The changes callers make to the roster, each one update of whichever store keeps it. */

export type NewMember = { name: string; role: string; model?: string | null; pid?: number | null; status?: MemberStatus; plan_mode_since?: string; permission_mode?: PermissionMode; host?: string; agent?: string; task?: string; session?: string };

/** A pid with its process's start time, when it can be read: together they name one process. */
function pidWithStart(pid: number | null): Pick<Member, 'pid' | 'pid_start'> {
  const start = pid === null ? undefined : processStartTime(pid);
  return start === undefined ? { pid } : { pid, pid_start: start };
}

export async function addMember(roster: RosterStore, input: NewMember): Promise<Member> {
  const now = new Date().toISOString();
  const parsed = Member.safeParse({
    name: input.name,
    role: input.role,
    status: input.status ?? 'registered',
    ...pidWithStart(input.pid ?? null),
    model: input.model ?? null,
    created_at: now,
    status_since: now,
    ...(input.plan_mode_since === undefined ? {} : { plan_mode_since: input.plan_mode_since }),
    ...(input.permission_mode === undefined ? {} : { permission_mode: input.permission_mode }),
    ...(input.host === undefined ? {} : { host: input.host }),
    ...(input.agent === undefined ? {} : { agent: input.agent }),
    ...(input.task === undefined ? {} : { task: input.task }),
    ...(input.session === undefined ? {} : { session: input.session }),
  });
  if (!parsed.success) throw new Refused(`cannot add member ${quoted(input.name)}: ${rosterIssues(parsed.error)}`);
  const member = parsed.data;
  await roster.update((team) => {
    if (findMember(team, member.name)) throw new Refused(`team '${team.name}' already has a member named '${member.name}'`);
    team.members.push(member);
  });
  return member;
}

/**
 * Take a member off the roster. Refuses the lead, unknown names, and members whose process
 * still runs (member-liveness.ts: a pid here, or a host's beat in `liveness`; the process that
 * removes is the one that checks).
 */
export async function removeMember(roster: RosterStore, name: string, liveness: LivenessView = {}): Promise<Member> {
  const { result } = await roster.update((team) => {
    if (name === LEAD) throw new Refused(`the ${LEAD} cannot be removed from the team`);
    const member = requireMember(team, name);
    if (memberIsAlive(member, liveness)) throw new Refused(`${name} is running (${describeMemberProcess(member)}); shut it down first`);
    team.members = team.members.filter((m) => m.name !== name);
    return member;
  });
  return result;
}

/** `plan_mode_since`: a spawn's plan mode, recorded (a time) or cleared (null); `host`: where a spawn placed it (null: this machine); `agent`: the definition a spawn used (null: none); `session`: where its conversation is journaled. */
export type StatusExtra = { pid?: number | null; model?: string | null; plan_mode_since?: string | null; permission_mode?: PermissionMode; host?: string | null; agent?: string | null; task?: string; session?: string };

/**
 * Set a member's status (and, with it, its pid or model); `status_since` moves only when the
 * status changes. Returns the member before and after, so the caller can audit the change.
 */
export async function setMemberStatus(
  roster: RosterStore,
  name: string,
  status: MemberStatus,
  extra: StatusExtra = {},
): Promise<{ member: Member; previous: Member }> {
  // Read before the update, which may run its change more than once.
  const named = extra.pid === undefined ? undefined : pidWithStart(extra.pid);
  const { result } = await roster.update((team) => {
    const member = requireMember(team, name);
    const previous = { ...member };
    if (member.status !== status) member.status_since = new Date().toISOString();
    member.status = status;
    if (named !== undefined) {
      member.pid = named.pid;
      if (named.pid_start === undefined) delete member.pid_start;
      else member.pid_start = named.pid_start;
    }
    if (extra.model !== undefined) member.model = extra.model;
    if (extra.plan_mode_since === null) delete member.plan_mode_since;
    else if (extra.plan_mode_since !== undefined) member.plan_mode_since = extra.plan_mode_since;
    if (extra.permission_mode !== undefined) member.permission_mode = extra.permission_mode;
    if (extra.host === null) delete member.host;
    else if (extra.host !== undefined) member.host = extra.host;
    if (extra.agent === null) delete member.agent;
    else if (extra.agent !== undefined) member.agent = extra.agent;
    if (extra.task !== undefined) member.task = extra.task;
    if (extra.session !== undefined) member.session = extra.session;
    return { member: { ...member }, previous };
  });
  return result;
}

/** Record the permission mode a member now works in; its status stays as it is. */
export async function setMemberMode(roster: RosterStore, name: string, mode: PermissionMode): Promise<void> {
  await roster.update((team) => {
    requireMember(team, name).permission_mode = mode;
  });
}

/** Record the worktree a member works in, or (null) that it has none any more. */
export async function setMemberWorktree(roster: RosterStore, name: string, worktree: WorktreeRecord | null): Promise<void> {
  await roster.update((team) => {
    const member = requireMember(team, name);
    if (worktree === null) delete member.worktree;
    else member.worktree = worktree;
  });
}

/** One turn's usage; `cost_usd` is its price (null: its model's price is not known). */
export type TurnUsage = Usage & { cost_usd?: number | null };

/** Costs added up: unknown (undefined) or unpriced (null) as soon as either is. */
function addCost(a: number | null | undefined, b: number | null | undefined): number | null | undefined {
  if (a === undefined || b === undefined) return undefined;
  return a === null || b === null ? null : a + b;
}

/** Add one turn's usage to a member's running totals. */
export async function addMemberUsage(roster: RosterStore, name: string, usage: TurnUsage): Promise<Member> {
  const { result } = await roster.update((team) => {
    const member = requireMember(team, name);
    const totals = member.usage ?? { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, tool_uses: 0, duration_ms: 0, cost_usd: 0 };
    const cost = addCost(totals.cost_usd, usage.cost_usd);
    member.usage = {
      ...(cost === undefined ? {} : { cost_usd: cost }),
      input_tokens: totals.input_tokens + usage.input_tokens,
      output_tokens: totals.output_tokens + usage.output_tokens,
      cache_read_tokens: totals.cache_read_tokens + (usage.cache_read_tokens ?? 0),
      cache_write_tokens: totals.cache_write_tokens + (usage.cache_write_tokens ?? 0),
      tool_uses: totals.tool_uses + (usage.tool_uses ?? 0),
      duration_ms: totals.duration_ms + (usage.duration_ms ?? 0),
    };
    return { ...member };
  });
  return result;
}
