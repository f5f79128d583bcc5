import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { mailboxDir, mailboxLayout } from '../../src/store/file/mailbox/layout.js';
import { LogTransport } from '../../src/store/file/mailbox/log-transport.js';
import { MessageId } from '../../src/protocol/messages.js';
import { readLines } from '../../src/store/file/jsonl.js';
import { teamPaths } from '../../src/team/paths.js';
import { DIST, spawnNode, type Child } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

/** The processes of the mailbox benchmarks and what they report. */

export const READER = join(DIST, 'test/bench/mailbox-reader-fixture.js');
export const WRITER = join(DIST, 'test/fixtures/mailbox-writer.js');

export const WriterReport = z.object({ wrote: z.number().int(), startNs: z.string(), endNs: z.string(), cpuUs: z.number() });

function lastLine(child: Child): string | undefined {
  const lines = child.stdout().trim().split('\n');
  const last = lines.at(-1);
  return last?.startsWith('{') ? last : undefined;
}

export async function reportOf<T>(child: Child, schema: z.ZodType<T>, what: string, timeoutMs: number): Promise<T> {
  const line = await waitFor(() => lastLine(child), what, timeoutMs);
  return schema.parse(JSON.parse(line));
}

export async function started(script: string, args: string[]): Promise<Child> {
  const child = spawnNode(script, args);
  await waitFor(() => child.stdout().includes('ready'), `${script} to be ready`, 20_000);
  return child;
}

export const ms = (value: number) => `${value.toFixed(2)} ms`;

/** The journal's ids: how many, and how many of them more than once. */
export function journalCounts(home: string, agent: string): { lines: number; duplicates: number } {
  const ids = readLines(mailboxLayout(mailboxDir(teamPaths(home, 'default').root, agent)).journal, z.object({ id: MessageId })).records.map((r) => r.id);
  return { lines: ids.length, duplicates: ids.length - new Set(ids).size };
}

/** Messages in the mailbox that its consumer has not taken. */
export async function unreadIn(home: string, agent: string): Promise<number> {
  return (await new LogTransport(teamPaths(home, 'default').root).peek(agent)).messages.length;
}

/** A fresh state root under `base` (the system temp dir, or a tmpfs). */
export function homeUnder(base: string): { home: string; cleanup: () => void } {
  if (base === tmpdir()) return tempHome('teams-bench-');
  const home = mkdtempSync(join(base, 'teams-bench-'));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}
