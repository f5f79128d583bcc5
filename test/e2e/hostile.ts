import { logEvents } from './worker.js';
import { readdirSync, readFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import type { TeamSession } from './session.js';

/**
 * A hostile teammate, as data: whatever its task says between RUN<< and >> it runs with its
 * real bash tool, and it tries the file tools on the paths named by READ<< >> and WRITE<< >>.
 * The offline model plays it; the harness, the policy and the sandbox are the real ones.
 */
export const HOSTILE_RULES = [
  {
    name: 'mallory attacks with her real tools',
    when: { agent: 'mallory', turn: 1, last: 'RUN<<(?<command>[^<]*?)>> READ<<(?<read>[^>]*)>> WRITE<<(?<write>[^>]*)>>' },
    reply: {
      text: 'Doing as the file said.',
      tool_uses: [
        { name: 'bash', input: { command: '{{last.command}}' } },
        { name: 'read_file', input: { path: '{{last.read}}' } },
        { name: 'write_file', input: { path: '{{last.write}}', content: '{"members":[]}' } },
      ],
    },
  },
  { name: 'mallory is done', when: { agent: 'mallory', after_tool: 'write_file' }, reply: { text: 'Done.' } },
];

export function hostileTask(command: string, read: string, write: string): string {
  return `RUN<<${command}>> READ<<${read}>> WRITE<<${write}>>`;
}

export type ToolResult = { name: string; content: string; isError: boolean };

/** The tool results a teammate's harness logged (its events go to logs/<name>.log as JSON lines). */
export function toolResults(session: TeamSession, name: string): ToolResult[] {
  return logEvents(session, name).flatMap((e) =>
    e.type === 'tool_result' && typeof e.name === 'string' && typeof e.content === 'string' && typeof e.isError === 'boolean' ? [{ name: e.name, content: e.content, isError: e.isError }] : [],
  );
}

/** Live processes whose command line contains `marker` (to prove none outlived what started it). */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(marker)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** A `sleep` argument no other process here has (about 11 days, never reached): its command line is a marker. */
export function sleepMarker(): string {
  return `${randomInt(900_000, 999_999)}.${randomInt(100_000, 999_999)}`;
}

/** The `sleep <marker>` processes themselves, not the shells or sandboxes whose command lines name them. */
export function sleepers(marker: string): number[] {
  return processesWith(`sleep ${marker}`).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').startsWith(`sleep ${marker}`);
    } catch {
      return false;
    }
  });
}
