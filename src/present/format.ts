import { type Envelope, type RequestRecord, humanLine, shownSender } from '../protocol/index.js';
import type { Member, AuditEntry } from '../store/index.js';
import type { Leftover } from '../worktree/index.js';
import { describeUsage } from '../team/index.js';
import { inertLine, inertText, oneLine } from '../lib/index.js';

// Plain-text views of the team's state. Both the CLI and the REPL's slash commands print them,
// so they live below both: the UI must not import the CLI.

/** "42s", "3m", "2h": how long ago (or, negative, how long until) a moment is. */
export function age(fromIso: string, now = Date.now()): string {
  const seconds = Math.round((now - Date.parse(fromIso)) / 1000);
  const abs = Math.abs(seconds);
  const text = abs < 60 ? `${abs}s` : abs < 3600 ? `${Math.floor(abs / 60)}m` : `${Math.floor(abs / 3600)}h`;
  return seconds < 0 ? `in ${text}` : text;
}

/**
 * Left-aligned columns; the last column is not padded. Every cell is made one inert line here,
 * before the widths are measured, since a role or a summary may hold anything.
 */
export function table(cells: string[][]): string {
  const rows = cells.map((row) => row.map(inertLine));
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '))
    .join('\n');
}

export function formatMembers(members: readonly Member[], now = Date.now()): string {
  // HOST only once a member runs on another machine ('-': the lead's): a one-machine team looks as it always did.
  const hosts = members.some((m) => m.host !== undefined);
  const rows = [['NAME', 'ROLE', 'STATUS', 'PID', ...(hosts ? ['HOST'] : []), 'SINCE', 'MODE', 'MODEL', 'USAGE']];
  for (const m of members) {
    // MODE: the permission mode it works in ('-' for the lead, and in rosters from before it was kept).
    const mode = m.permission_mode ?? '-';
    const host = hosts ? [m.host ?? '-'] : [];
    rows.push([m.name, m.role, m.status, m.pid === null ? '-' : String(m.pid), ...host, age(m.status_since, now), mode, m.model ?? '-', m.usage ? describeUsage(m) : '-']);
  }
  return table(rows);
}

export function formatRequests(records: readonly RequestRecord[], now = Date.now()): string {
  if (records.length === 0) return 'no requests';
  const rows = [['REQUEST', 'KIND', 'FROM', 'TO', 'STATE', 'AGE', 'DEADLINE', 'SUMMARY']];
  for (const r of records) {
    const deadline = r.state === 'pending' ? age(r.deadline_at, now) : '-';
    rows.push([r.request_id, r.kind, r.from, r.to, r.state, age(r.created_at, now), deadline, oneLine(r.summary, 60)]);
  }
  return table(rows);
}

/** "alice compacted its context: 24,310 → 7,902 tokens (threshold)", for the transcript, the printer and the log. */
export function compactionLine(agent: string, before: number, after: number, reason: string): string {
  const why = reason === 'threshold' ? 'past its threshold' : reason === 'overflow' ? 'the API found it too long' : 'asked by /compact';
  return `${agent} compacted its context: ${before.toLocaleString('en-US')} → ${after.toLocaleString('en-US')} tokens (${why})`;
}

/** A message as a human reads it in a terminal: when, who, what (a multi-line text keeps its lines). */
export function formatMessage(envelope: Envelope): string {
  const time = envelope.timestamp.slice(11, 19);
  return inertText(`${time} ${shownSender(envelope)} → ${envelope.to} [${envelope.type}] ${humanLine(envelope)}`);
}

/** One audit entry as one inert line: any field may carry an agent's words (`by`, a change, a problem's reason). */
export function formatAudit(entry: AuditEntry): string {
  return inertLine(auditLine(entry));
}

function auditLine(entry: AuditEntry): string {
  const time = entry.at.slice(11, 23);
  switch (entry.event) {
    case 'message':
      return `${time} message  ${shownSender(entry)} → ${entry.to} [${entry.type}]${entry.request_id ? ` ${entry.request_id}` : ''} ${oneLine(entry.summary, 80)}`;
    case 'request':
      return `${time} request  ${entry.request_id} (${entry.kind} ${entry.from} → ${entry.to}) ${entry.from_state ?? 'new'} → ${entry.to_state} by ${entry.by}${entry.note ? `: ${oneLine(entry.note, 80)}` : ''}`;
    case 'member':
      return `${time} member   ${entry.name} ${entry.change}`;
    case 'problem':
      return `${time} problem  ${entry.what}: ${entry.reason}`;
    case 'compacted':
      return `${time} compact  ${compactionLine(entry.agent, entry.before, entry.after, entry.reason)}`;
    case 'hook':
      return `${time} hook     ${entry.hook_event}${entry.agent ? ` (${entry.agent})` : ''} \`${oneLine(entry.command, 60)}\` ${entry.outcome}${entry.reason ? `: ${oneLine(entry.reason, 80)}` : ''}${entry.outcome === 'blocked' ? `: ${oneLine(entry.stderr, 80)}` : ''}`;
  }
}

/** Teammates' worktrees still on disk, one a line: name, branch, what it holds unmerged, where. */
export function formatWorktrees(worktrees: readonly Leftover[]): string {
  return worktrees.map((w) => `  ${inertLine(w.name)}  ${inertLine(w.branch)}  ${worktreeState(w)}  ${inertLine(w.path)}`).join('\n');
}

/**
 * What a worktree holds, truthfully: "merged" only when its branch has nothing your branch lacks
 * and nothing is left uncommitted or still being written (a running teammate's first changes are
 * not merged work).
 */
function worktreeState(w: Leftover): string {
  const commits = w.unmerged > 0 ? `${w.unmerged} unmerged commit${w.unmerged === 1 ? '' : 's'}` : w.uncommitted || w.running ? 'no commits to merge yet' : 'merged';
  return [commits, ...(w.uncommitted ? ['uncommitted changes'] : []), ...(w.running ? ['running'] : []), ...(w.directory ? [] : ['its directory gone'])].join(', ');
}
