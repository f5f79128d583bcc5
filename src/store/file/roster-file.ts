import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { Refused } from '../../lib/refused.js';
import { inertLine, quoted } from '../../lib/terminal-text.js';
import type { Usage } from '../../protocol/messages.js';
import { LEAD } from '../../protocol/names.js';
import { writeFileAtomic } from '../../files/atomic-file.js';
import { errnoCode, isMissing } from '../../files/errno.js';
import { isProcessAlive, withFileLock, type FileLockOptions } from '../../files/file-lock.js';
import { findMember, Member, newTeam, requireMember, rosterIssues, TeamConfig, type CreateTeamOptions, type MemberStatus } from '../roster.js';
import { fileLayout, type FileLocation } from './layout.js';

/**
 * The roster as `config.json`. Every change is lock + read + mutate + atomic replace;
 * readers never lock, since the atomic rename means they see a whole file, old or new.
 */

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
export function loadTeam(location: FileLocation): TeamConfig | undefined {
  const path = fileLayout(location.root).config;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    // Node's EISDIR message names neither the file nor the remedy.
    if (errnoCode(error) === 'EISDIR') throw new Error(`${path}: is a directory, not a team config file`);
    throw error;
  }
  const binary = binaryAt(text);
  if (binary) {
    throw new Error(`${path} is not a team config file: it holds binary data (control character ${inertLine(binary.char)} at character ${binary.index})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // The parser's message quotes the text around the error: escaped, like the rest.
    throw new Error(`${path} is not valid JSON (${inertLine(error instanceof Error ? error.message : String(error))})`);
  }
  const parsed = TeamConfig.safeParse(value);
  if (!parsed.success) throw new Error(`${path} is not a valid team config: ${rosterIssues(parsed.error)}`);
  return parsed.data;
}

function save(location: FileLocation, config: TeamConfig): TeamConfig {
  const path = fileLayout(location.root).config;
  const parsed = TeamConfig.safeParse(config);
  if (!parsed.success) throw new Error(`refusing to write an invalid team config to ${path}: ${rosterIssues(parsed.error)}`);
  writeFileAtomic(path, `${JSON.stringify(parsed.data, null, 2)}\n`);
  return parsed.data;
}

/** Create the team directory and its config with the lead on the roster. Refuses an existing team. */
export function createTeam(location: FileLocation, options: CreateTeamOptions = {}): TeamConfig {
  const { config, configLock } = fileLayout(location.root);
  mkdirSync(location.root, { recursive: true });
  return withFileLock(configLock, () => {
    if (existsSync(config)) throw new Refused(`team '${location.team}' already exists (${config})`);
    return save(location, newTeam(location.team, options));
  });
}

/** The team's config, created first if absent: safe when several processes race to create the team. */
export function ensureTeam(location: FileLocation, options: CreateTeamOptions = {}): TeamConfig {
  const existing = loadTeam(location);
  if (existing) return existing;
  mkdirSync(location.root, { recursive: true });
  return withFileLock(fileLayout(location.root).configLock, () => loadTeam(location) ?? save(location, newTeam(location.team, options)));
}

/**
 * Read-modify-write under the team lock. `mutate` changes the draft in place (synchronously)
 * or throws to refuse; the result is validated before it replaces the file.
 */
export function updateTeam<T>(
  location: FileLocation,
  mutate: (draft: TeamConfig) => T,
  options?: FileLockOptions,
): { config: TeamConfig; result: T } {
  const { config, configLock } = fileLayout(location.root);
  const missing = () => new Error(`no team '${location.team}' (${config} does not exist); create it first`);
  if (!existsSync(location.root)) throw missing();
  return withFileLock(
    configLock,
    () => {
      const current = loadTeam(location);
      if (!current) throw missing();
      const result = mutate(current);
      return { config: save(location, current), result };
    },
    options,
  );
}

export type NewMember = { name: string; role: string; model?: string | null; pid?: number | null; status?: MemberStatus };

export function addMember(location: FileLocation, input: NewMember): Member {
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
  if (!parsed.success) throw new Refused(`cannot add member ${quoted(input.name)}: ${rosterIssues(parsed.error)}`);
  const member = parsed.data;
  updateTeam(location, (team) => {
    if (findMember(team, member.name)) throw new Refused(`team '${team.name}' already has a member named '${member.name}'`);
    team.members.push(member);
  });
  return member;
}

/** Take a member off the roster. Refuses the lead, unknown names, and members whose process still runs. */
export function removeMember(location: FileLocation, name: string): Member {
  return updateTeam(location, (team) => {
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
  location: FileLocation,
  name: string,
  status: MemberStatus,
  extra: StatusExtra = {},
): { member: Member; previous: Member } {
  return updateTeam(location, (team) => {
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
export function addMemberUsage(location: FileLocation, name: string, usage: Usage): Member {
  return updateTeam(location, (team) => {
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
