import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { mailboxLayout } from '../../src/mailbox/layout.js';
import { MessageId } from '../../src/protocol/messages.js';
import { readLines } from '../../src/store/jsonl.js';
import { teamPaths } from '../../src/team/paths.js';
import { DIST, killAll, spawnNode, type Child } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { filesystemOf } from './filesystem.js';
import type { BenchSection, Figure } from './section.js';
import { ReaderReport } from './stats.js';

const READER = join(DIST, 'test/bench/mailbox-reader-fixture.js');
const WRITER = join(DIST, 'test/fixtures/mailbox-writer.js');
const FLOOR_READER = join(DIST, 'test/bench/floor-reader-fixture.js');
const FLOOR_WRITER = join(DIST, 'test/bench/floor-writer-fixture.js');

/** Paced so that each message finds the reader idle: this measures latency, not queueing. */
const LATENCY_MESSAGES = 1500;
const LATENCY_PACE_MS = 2;
const BURST_MESSAGES = 2000;
const WRITERS = 8;
const PER_WRITER = 2000;

const WriterReport = z.object({ wrote: z.number().int(), startNs: z.string(), endNs: z.string(), cpuUs: z.number() });

function lastLine(child: Child): string | undefined {
  const lines = child.stdout().trim().split('\n');
  const last = lines.at(-1);
  return last?.startsWith('{') ? last : undefined;
}

async function reportOf<T>(child: Child, schema: z.ZodType<T>, what: string, timeoutMs: number): Promise<T> {
  const line = await waitFor(() => lastLine(child), what, timeoutMs);
  return schema.parse(JSON.parse(line));
}

async function started(script: string, args: string[]): Promise<Child> {
  const child = spawnNode(script, args);
  await waitFor(() => child.stdout().includes('ready'), `${script} to be ready`, 20_000);
  return child;
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

/** The journal's ids: how many, and how many of them more than once. */
function journalCounts(home: string, agent: string): { lines: number; duplicates: number } {
  const ids = readLines(mailboxLayout(teamPaths(home, 'default').mailbox(agent)).journal, z.object({ id: MessageId })).records.map((r) => r.id);
  return { lines: ids.length, duplicates: ids.length - new Set(ids).size };
}

function pendingIn(home: string, agent: string): number {
  return readdirSync(mailboxLayout(teamPaths(home, 'default').mailbox(agent)).new).length;
}

async function latency(): Promise<Figure[]> {
  const { home, cleanup } = tempHome('teams-bench-');
  try {
    const reader = await started(READER, ['--home', home, '--agent', 'bob', '--expect', String(LATENCY_MESSAGES)]);
    spawnNode(WRITER, ['--home', home, '--to', 'bob', '--from', 'alice', '--count', String(LATENCY_MESSAGES), '--pace-ms', String(LATENCY_PACE_MS)]);
    const mailbox = await reportOf(reader, ReaderReport, 'the mailbox latency report', 60_000);

    const file = join(home, 'floor.log');
    writeFileSync(file, '');
    const floorReader = await started(FLOOR_READER, [file, String(LATENCY_MESSAGES)]);
    spawnNode(FLOOR_WRITER, [file, String(LATENCY_MESSAGES), String(LATENCY_PACE_MS)]);
    const floor = await reportOf(floorReader, ReaderReport, 'the fs.watch floor report', 60_000);

    const beside = (value: number, floorValue: number) => `${ms(value)}  (fs.watch floor ${ms(floorValue)})`;
    return [
      { label: `latency p50, writer process → handler (${LATENCY_MESSAGES} msgs, 1 per ${LATENCY_PACE_MS} ms)`, value: beside(mailbox.p50Ms, floor.p50Ms), target: '≤ 3 ms', met: mailbox.p50Ms <= 3 },
      { label: 'latency p99', value: beside(mailbox.p99Ms, floor.p99Ms), target: '≤ 15 ms', met: mailbox.p99Ms <= 15 },
      { label: 'latency max', value: beside(mailbox.maxMs, floor.maxMs) },
      { label: 'latency run: lost / duplicated', value: `${LATENCY_MESSAGES - mailbox.received} / ${mailbox.duplicates}`, target: '0 / 0', met: mailbox.received === LATENCY_MESSAGES && mailbox.duplicates === 0 },
    ];
  } finally {
    // Children first: a reader still running would write into the directory being removed.
    await killAll();
    cleanup();
  }
}

async function burstThenSilence(): Promise<Figure[]> {
  const { home, cleanup } = tempHome('teams-bench-');
  try {
    const reader = await started(READER, ['--home', home, '--agent', 'bob', '--expect', String(BURST_MESSAGES)]);
    const writer = spawnNode(WRITER, ['--home', home, '--to', 'bob', '--from', 'alice', '--count', String(BURST_MESSAGES)]);
    await reportOf(writer, WriterReport, 'the burst writer to finish', 30_000);
    const read = await reportOf(reader, ReaderReport, 'the last message of the burst', 30_000);
    const lost = BURST_MESSAGES - read.received;
    return [
      { label: `burst then silence: last message sent → handled (${BURST_MESSAGES} msgs, unpaced, one writer)`, value: ms(read.lastMs) },
      { label: 'burst: lost / duplicated / left in new/', value: `${lost} / ${read.duplicates} / ${pendingIn(home, 'bob')}`, target: '0 / 0 / 0', met: lost === 0 && read.duplicates === 0 && pendingIn(home, 'bob') === 0 },
    ];
  } finally {
    // Children first: a reader still running would write into the directory being removed.
    await killAll();
    cleanup();
  }
}

/** A fresh state root under `base` (the system temp dir, or a tmpfs for comparison). */
function homeUnder(base: string): { home: string; cleanup: () => void } {
  if (base === tmpdir()) return tempHome('teams-bench-');
  const home = mkdtempSync(join(base, 'teams-bench-'));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

async function throughputIn(base: string, withTarget: boolean): Promise<Figure[]> {
  const { home, cleanup } = homeUnder(base);
  const total = WRITERS * PER_WRITER;
  const where = `${base} (${filesystemOf(base)})`;
  try {
    const reader = await started(READER, ['--home', home, '--agent', 'bob', '--expect', String(total)]);
    const writers: Child[] = [];
    for (let w = 0; w < WRITERS; w++) {
      const args = ['--home', home, '--to', 'bob', '--from', `writer${w}`, '--count', String(PER_WRITER), '--wait-go'];
      writers.push(spawnNode(WRITER, args, { stdio: ['pipe', 'pipe', 'pipe'] }));
    }
    await waitFor(() => writers.every((w) => w.stdout().includes('ready')), 'the writers to be ready', 30_000);
    const goNs = process.hrtime.bigint();
    for (const writer of writers) writer.process.stdin?.write('go\n');
    const reports = await Promise.all(writers.map((w, i) => reportOf(w, WriterReport, `writer ${i} to finish`, 60_000)));
    const read = await reportOf(reader, ReaderReport, 'the reader to handle every message', 60_000);
    const writtenSeconds = Number(reports.reduce((end, r) => (BigInt(r.endNs) > end ? BigInt(r.endNs) : end), 0n) - goNs) / 1e9;
    const handledRate = total / (Number(BigInt(read.lastNs) - goNs) / 1e9);
    const journal = journalCounts(home, 'bob');
    const lost = total - read.received;
    const writerCpuUs = reports.reduce((sum, r) => sum + r.cpuUs, 0) / total;
    const readerCpuUs = read.cpuUs / total;
    const ok = lost === 0 && read.duplicates === 0 && journal.lines === total && journal.duplicates === 0;
    return [
      { label: `in ${where}: written`, value: `${Math.round(total / writtenSeconds)} msg/s` },
      {
        label: `in ${where}: handled (go → last handler call)`,
        value: `${Math.round(handledRate)} msg/s`,
        ...(withTarget ? { target: '≥ 10000 msg/s', met: handledRate >= 10_000 } : {}),
      },
      { label: `in ${where}: lost / duplicated (handler / journal)`, value: `${lost} / ${read.duplicates} / ${journal.duplicates}`, target: '0 / 0 / 0', met: ok },
      {
        label: `in ${where}: CPU per message, writers + reader`,
        value: `${writerCpuUs.toFixed(0)} + ${readerCpuUs.toFixed(0)} µs (2-core ceiling ${Math.round(2e6 / (writerCpuUs + readerCpuUs))} msg/s)`,
      },
      { label: `in ${where}: reader peak RSS (maxRSS)`, value: `${(read.maxRssKiB / 1024).toFixed(1)} MiB` },
    ];
  } finally {
    // Children first: a reader still running would write into the directory being removed.
    await killAll();
    cleanup();
  }
}

/**
 * Where the team state lives by default (the system temp dir), against the target; then, for
 * comparison, a tmpfs when there is one on another filesystem: creating and deleting a file per
 * message costs very different amounts on different filesystems.
 */
async function throughput(): Promise<Figure[]> {
  const figures = await throughputIn(tmpdir(), true);
  const tmpfs = '/dev/shm';
  if (existsSync(tmpfs) && filesystemOf(tmpfs) === 'tmpfs' && filesystemOf(tmpdir()) !== 'tmpfs') figures.push(...(await throughputIn(tmpfs, false)));
  return figures;
}

export const mailboxSections: BenchSection[] = [
  { name: 'mailbox delivery latency', run: latency },
  { name: 'mailbox burst then silence', run: burstThenSilence },
  { name: `mailbox throughput: ${WRITERS} writer processes × ${PER_WRITER} → 1 mailbox`, run: throughput },
];
