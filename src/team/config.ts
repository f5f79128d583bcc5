import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as z from 'zod';
import { Refused } from '../lib/refused.js';
import { inertLine, quoted } from '../lib/terminal-text.js';
import { RequestKindSchema, Usage } from '../protocol/messages.js';
import { AgentName, LEAD } from '../protocol/names.js';
import { memberHint } from '../protocol/suggest.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import { errnoCode, isMissing } from '../store/errno.js';
import { isProcessAlive, withFileLock, type FileLockOptions } from '../store/file-lock.js';
import { teamNameProblem, type TeamPaths } from './paths.js';
import { describeIssues } from '../lib/zod-issues.js';

/**
 * `.teams/<team>/config.json`: the roster. Several processes (lead, teammates, the CLI)
 * change it, so every change is lock + read + mutate + atomic replace; readers never lock,
 * since the atomic rename means they see a whole file, old or new.
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

/** Running totals of a member's model usage. */
export const UsageTotals = Usage.required();
export type UsageTotals = z.infer<typeof UsageTotals>;

export const Member = z.object({
  name: AgentName,
  role: z.string().min(1, 'role is empty'),
  status: MemberStatus,
  pid: z.number().int().positive().nullable(),
  model: z.string().min(1).nullable(),
  created_at: timestamp,
  status_since: timestamp,
  usage: UsageTotals.optional(),
});
export type Member = z.infer<typeof Member>;

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

/** The issues as one line; inert, since they may quote whatever the file held. */
function issues(error: z.ZodError): string {
  return inertLine(describeIssues(error, 'config'));
}

function lockPath(paths: TeamPaths): string {
  return `${paths.config}.lock`;
}

/** Where `text` holds a C0 control character JSON never allows (only tab, newline and CR), if it does. */
function binaryAt(text: string): { index: number; char: string } | undefined {
  // eslint-disable-next-line no-control-regex -- looking for control characters is the point
  const match = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.exec(text);
  return match ? { index: match.index, char: match[0] } : undefined;
}

/**
 * The team's config, or undefined if the team does not exist. A corrupt file is an error naming
 * it, saying what is wrong without echoing its raw bytes.
 */
export function loadTeam(paths: TeamPaths): TeamConfig | undefined {
  let text: string;
  try {
    text = readFileSync(paths.config, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    // Node's EISDIR message names neither the file nor the remedy.
    if (errnoCode(error) === 'EISDIR') throw new Error(`${paths.config}: is a directory, not a team config file`);
    throw error;
  }
  const binary = binaryAt(text);
  if (binary) {
    throw new Error(`${paths.config} is not a team config file: it holds binary data (control character ${inertLine(binary.char)} at character ${binary.index})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // The parser's message quotes the text around the error: escaped, like the rest.
    throw new Error(`${paths.config} is not valid JSON (${inertLine(error instanceof Error ? error.message : String(error))})`);
  }
  const parsed = TeamConfig.safeParse(value);
  if (!parsed.success) throw new Error(`${paths.config} is not a valid team config: ${issues(parsed.error)}`);
  return parsed.data;
}

function save(paths: TeamPaths, config: TeamConfig): TeamConfig {
  const parsed = TeamConfig.safeParse(config);
  if (!parsed.success) throw new Error(`refusing to write an invalid team config to ${paths.config}: ${issues(parsed.error)}`);
  writeFileAtomic(paths.config, `${JSON.stringify(parsed.data, null, 2)}\n`);
  return parsed.data;
}

export type CreateTeamOptions = { deadlines_ms?: TeamConfig['deadlines_ms'] };

function writeNewTeam(paths: TeamPaths, options: CreateTeamOptions): TeamConfig {
  const now = new Date().toISOString();
  const lead: Member = { name: LEAD, role: 'lead', status: 'registered', pid: null, model: null, created_at: now, status_since: now };
  return save(paths, { name: paths.team, created_at: now, members: [lead], ...options });
}

/** Create the team directory and its config with the lead on the roster. Refuses an existing team. */
export function createTeam(paths: TeamPaths, options: CreateTeamOptions = {}): TeamConfig {
  mkdirSync(paths.root, { recursive: true });
  return withFileLock(lockPath(paths), () => {
    if (existsSync(paths.config)) throw new Refused(`team '${paths.team}' already exists (${paths.config})`);
    return writeNewTeam(paths, options);
  });
}

/** The team's config, created first if absent: safe when several processes race to create the team. */
export function ensureTeam(paths: TeamPaths, options: CreateTeamOptions = {}): TeamConfig {
  const existing = loadTeam(paths);
  if (existing) return existing;
  mkdirSync(paths.root, { recursive: true });
  return withFileLock(lockPath(paths), () => loadTeam(paths) ?? writeNewTeam(paths, options));
}

/**
 * Read-modify-write under the team lock. `mutate` changes the draft in place (synchronously)
 * or throws to refuse; the result is validated before it replaces the file.
 */
export function updateTeam<T>(
  paths: TeamPaths,
  mutate: (draft: TeamConfig) => T,
  options?: FileLockOptions,
): { config: TeamConfig; result: T } {
  const missing = () => new Error(`no team '${paths.team}' (${paths.config} does not exist); create it first`);
  if (!existsSync(paths.root)) throw missing();
  return withFileLock(
    lockPath(paths),
    () => {
      const current = loadTeam(paths);
      if (!current) throw missing();
      const result = mutate(current);
      return { config: save(paths, current), result };
    },
    options,
  );
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

export type NewMember = { name: string; role: string; model?: string | null; pid?: number | null; status?: MemberStatus };

export function addMember(paths: TeamPaths, input: NewMember): Member {
  const now = new Date().toISOString();
  const parsed = Member.safeParse({
    name: input.name,
    role: input.role,
    status: input.status ?? 'registered',
    pid: input.pid ?? null,
    model: input.model ?? null,
    created_at: now,
    status_since: now,
  });
  if (!parsed.success) throw new Refused(`cannot add member ${quoted(input.name)}: ${issues(parsed.error)}`);
  const member = parsed.data;
  updateTeam(paths, (team) => {
    if (findMember(team, member.name)) throw new Refused(`team '${team.name}' already has a member named '${member.name}'`);
    team.members.push(member);
  });
  return member;
}

/** Take a member off the roster. Refuses the lead, unknown names, and members whose process still runs. */
export function removeMember(paths: TeamPaths, name: string): Member {
  return updateTeam(paths, (team) => {
    if (name === LEAD) throw new Refused(`the ${LEAD} cannot be removed from the team`);
    const member = requireMember(team, name);
    if (member.pid !== null && isProcessAlive(member.pid)) throw new Refused(`${name} is running (pid ${member.pid}); shut it down first`);
    team.members = team.members.filter((m) => m.name !== name);
    return member;
  }).result;
}

export type StatusExtra = { pid?: number | null; model?: string | null };

/**
 * Set a member's status (and, with it, its pid or model); `status_since` moves only when the
 * status changes. Returns the member before and after, so the caller can audit the change.
 */
export function setMemberStatus(
  paths: TeamPaths,
  name: string,
  status: MemberStatus,
  extra: StatusExtra = {},
): { member: Member; previous: Member } {
  return updateTeam(paths, (team) => {
    const member = requireMember(team, name);
    const previous = { ...member };
    if (member.status !== status) member.status_since = new Date().toISOString();
    member.status = status;
    if (extra.pid !== undefined) member.pid = extra.pid;
    if (extra.model !== undefined) member.model = extra.model;
    return { member: { ...member }, previous };
  }).result;
}

/** Add one turn's usage to a member's running totals. */
export function addMemberUsage(paths: TeamPaths, name: string, usage: Usage): Member {
  return updateTeam(paths, (team) => {
    const member = requireMember(team, name);
    const totals = member.usage ?? { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, tool_uses: 0, duration_ms: 0 };
    member.usage = {
      input_tokens: totals.input_tokens + usage.input_tokens,
      output_tokens: totals.output_tokens + usage.output_tokens,
      cache_read_tokens: totals.cache_read_tokens + (usage.cache_read_tokens ?? 0),
      cache_write_tokens: totals.cache_write_tokens + (usage.cache_write_tokens ?? 0),
      tool_uses: totals.tool_uses + (usage.tool_uses ?? 0),
      duration_ms: totals.duration_ms + (usage.duration_ms ?? 0),
    };
    return { ...member };
  }).result;
}
