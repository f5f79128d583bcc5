import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { killAll, spawnNode, type Child } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { filesystemOf } from './filesystem.js';
import { homeUnder, journalCounts, READER, reportOf, started, unreadIn, WRITER, WriterReport } from './mailbox-processes.js';
import type { Figure } from './section.js';
import { ReaderReport } from './stats.js';

export const WRITERS = 8;
export const PER_WRITER = 2000;
const RUNS = 3;

type Run = {
  /** Messages handled per second, from the first message sent to the last one handled. */
  rate: number;
  /** Messages written per second, from the first sent to the last writer done. */
  written: number;
  lost: number;
  duplicates: number;
  journalDuplicates: number;
  unread: number;
  writerCpuUs: number;
  readerCpuUs: number;
  readerRssMiB: number;
};

/** One run: 8 writer processes, each told to go at once, 2,000 messages each into one mailbox. */
async function run(base: string): Promise<Run> {
  const { home, cleanup } = homeUnder(base);
  const total = WRITERS * PER_WRITER;
  try {
    const reader = await started(READER, ['--home', home, '--agent', 'bob', '--expect', String(total)]);
    const writers: Child[] = [];
    for (let w = 0; w < WRITERS; w++) {
      const args = ['--home', home, '--to', 'bob', '--from', `writer${w}`, '--count', String(PER_WRITER), '--wait-go'];
      writers.push(spawnNode(WRITER, args, { stdio: ['pipe', 'pipe', 'pipe'] }));
    }
    await waitFor(() => writers.every((w) => w.stdout().includes('ready')), 'the writers to be ready', 30_000);
    for (const writer of writers) writer.process.stdin?.write('go\n');
    const reports = await Promise.all(writers.map((w, i) => reportOf(w, WriterReport, `writer ${i} to finish`, 60_000)));
    const read = await reportOf(reader, ReaderReport, 'the reader to handle every message', 60_000);
    const firstSentNs = reports.reduce((first, r) => (BigInt(r.startNs) < first ? BigInt(r.startNs) : first), BigInt(reports[0]?.startNs ?? 0));
    const lastWrittenNs = reports.reduce((last, r) => (BigInt(r.endNs) > last ? BigInt(r.endNs) : last), 0n);
    const seconds = (endNs: bigint) => Number(endNs - firstSentNs) / 1e9;
    const journal = journalCounts(home, 'bob');
    return {
      rate: total / seconds(BigInt(read.lastNs)),
      written: total / seconds(lastWrittenNs),
      lost: total - read.received,
      duplicates: read.duplicates,
      journalDuplicates: journal.duplicates + Math.max(0, total - journal.lines),
      unread: await unreadIn(home, 'bob'),
      writerCpuUs: reports.reduce((sum, r) => sum + r.cpuUs, 0) / total,
      readerCpuUs: read.cpuUs / total,
      readerRssMiB: read.maxRssKiB / 1024,
    };
  } finally {
    // Children first: a reader still running would write into the directory being removed.
    await killAll();
    cleanup();
  }
}

const rate = (value: number) => `${Math.round(value).toLocaleString('en-US')} msg/s`;
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

/** `RUNS` runs under `base`: each run's figure, then the median and the minimum against their targets. */
async function runsIn(base: string, targets: { median: number; min?: number }, note: string): Promise<Figure[]> {
  const where = `${base} (${filesystemOf(base)})`;
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await run(base));
  const rates = sorted(runs.map((r) => r.rate));
  const median = rates[Math.floor(rates.length / 2)] ?? Number.NaN;
  const min = rates[0] ?? Number.NaN;
  const clean = runs.every((r) => r.lost === 0 && r.duplicates === 0 && r.journalDuplicates === 0 && r.unread === 0);
  const mean = (pick: (r: Run) => number) => runs.reduce((sum, r) => sum + pick(r), 0) / runs.length;
  const cpu = mean((r) => r.writerCpuUs) + mean((r) => r.readerCpuUs);
  return [
    ...runs.map((r, i) => ({ label: `in ${where}: run ${i + 1}, first sent → last handled`, value: `${rate(r.rate)} (written: ${rate(r.written)})` })),
    { label: `in ${where}: median of ${RUNS}${note}`, value: rate(median), target: `≥ ${rate(targets.median)}`, met: median >= targets.median },
    ...(targets.min === undefined ? [] : [{ label: `in ${where}: minimum of ${RUNS}`, value: rate(min), target: `≥ ${rate(targets.min)}`, met: min >= targets.min }]),
    {
      label: `in ${where}: lost / duplicated (handler / journal) / left unread, all runs`,
      value: runs.map((r) => `${r.lost}/${r.duplicates}/${r.journalDuplicates}/${r.unread}`).join(', '),
      target: '0/0/0/0',
      met: clean,
    },
    {
      label: `in ${where}: CPU per message, writers + reader (mean)`,
      value: `${mean((r) => r.writerCpuUs).toFixed(1)} + ${mean((r) => r.readerCpuUs).toFixed(1)} µs (2-core ceiling ${rate(2e6 / cpu)})`,
    },
    { label: `in ${where}: reader peak RSS (maxRSS, largest)`, value: `${Math.max(...runs.map((r) => r.readerRssMiB)).toFixed(1)} MiB` },
  ];
}

/**
 * Where the team state lives by default (the system temp dir). On ext4 a file create is slow
 * for minutes after many deletions, so this runs first, before any section that deletes many
 * files; the figure still depends on what ran on the machine before the bench.
 */
export async function diskThroughput(): Promise<Figure[]> {
  const note = filesystemOf(tmpdir()) === 'ext4' ? ' (on ext4 it depends on how many files were deleted in the minutes before)' : '';
  return runsIn(tmpdir(), { median: 20_000, min: 15_000 }, note);
}

/** The same on a tmpfs, when there is one apart from the temp dir: the disk taken out of the figure. */
export async function tmpfsThroughput(): Promise<Figure[]> {
  const tmpfs = '/dev/shm';
  if (!existsSync(tmpfs) || filesystemOf(tmpfs) !== 'tmpfs' || filesystemOf(tmpdir()) === 'tmpfs') return [{ label: 'no separate tmpfs to compare with', value: '-' }];
  return runsIn(tmpfs, { median: 25_000 }, '');
}
