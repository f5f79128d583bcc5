import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, killAll, spawnNode } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { journalCounts, ms, READER, reportOf, started, unreadIn, WRITER, WriterReport } from './mailbox-processes.js';
import { diskThroughput, PER_WRITER, tmpfsThroughput, WRITERS } from './mailbox-throughput.js';
import type { BenchSection, Figure } from './section.js';
import { ReaderReport } from './stats.js';

const FLOOR_READER = join(DIST, 'test/bench/floor-reader-fixture.js');
const FLOOR_WRITER = join(DIST, 'test/bench/floor-writer-fixture.js');

/** Paced so that each message finds the reader idle: this measures latency, not queueing. */
const LATENCY_MESSAGES = 1500;
const LATENCY_PACE_MS = 2;
const BURST_MESSAGES = 2000;

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
    const journal = journalCounts(home, 'bob');
    const lost = LATENCY_MESSAGES - mailbox.received;
    return [
      { label: `latency p50, writer process → handler (${LATENCY_MESSAGES} msgs, 1 per ${LATENCY_PACE_MS} ms)`, value: beside(mailbox.p50Ms, floor.p50Ms), target: '≤ 1 ms', met: mailbox.p50Ms <= 1 },
      { label: 'latency p99', value: beside(mailbox.p99Ms, floor.p99Ms), target: '≤ 5 ms', met: mailbox.p99Ms <= 5 },
      { label: 'latency max', value: beside(mailbox.maxMs, floor.maxMs) },
      {
        label: 'latency run: lost / duplicated (handler / journal)',
        value: `${lost} / ${mailbox.duplicates} / ${journal.duplicates}`,
        target: '0 / 0 / 0',
        met: lost === 0 && mailbox.duplicates === 0 && journal.duplicates === 0,
      },
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
    const wrote = await reportOf(writer, WriterReport, 'the burst writer to finish', 30_000);
    const read = await reportOf(reader, ReaderReport, 'the last message of the burst', 30_000);
    const lost = BURST_MESSAGES - read.received;
    const unread = await unreadIn(home, 'bob');
    const burstMs = Number(BigInt(read.lastNs) - BigInt(wrote.startNs)) / 1e6;
    const sentMs = Number(BigInt(wrote.endNs) - BigInt(wrote.startNs)) / 1e6;
    return [
      { label: `burst of ${BURST_MESSAGES} (one writer, unpaced): first sent → last handled`, value: `${ms(burstMs)} (sending took ${ms(sentMs)})` },
      { label: 'burst then silence: last message sent → handled', value: ms(read.lastMs) },
      { label: 'burst: lost / duplicated / left unread', value: `${lost} / ${read.duplicates} / ${unread}`, target: '0 / 0 / 0', met: lost === 0 && read.duplicates === 0 && unread === 0 },
    ];
  } finally {
    // Children first: a reader still running would write into the directory being removed.
    await killAll();
    cleanup();
  }
}

const throughputName = `${WRITERS} writer processes × ${PER_WRITER} → 1 mailbox`;

/** The disk case first: before anything in the bench deletes many files (see diskThroughput). */
export const mailboxSections: BenchSection[] = [
  { name: `mailbox throughput on the disk: ${throughputName}`, run: diskThroughput },
  { name: 'mailbox delivery latency', run: latency },
  { name: 'mailbox burst then silence', run: burstThenSilence },
  { name: `mailbox throughput on tmpfs: ${throughputName}`, run: tmpfsThroughput },
];
