import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Envelope } from '../../src/protocol/messages.js';
import { openRedisStore } from '../../src/store/redis/index.js';
import { DIST, killAll, spawnNode, type Child } from '../helpers/children.js';
import { startRedisServer } from '../helpers/redis-server.js';
import { waitFor } from '../helpers/wait.js';
import { parseStamp } from '../fixtures/mailbox-envelopes.js';
import type { BenchSection, Figure } from './section.js';
import { commandFigures, resetCommandstats } from './redis-commandstats.js';
import { latencySummary } from './stats.js';

// The Redis store's mailbox figures, on a redis-server of its own on loopback with appendfsync
// always, then everysec; printed right after the file store's (run.ts). Alone: `npm run bench -- Redis`.

const CHILD = join(DIST, 'test', 'fixtures', 'store-child.js');
const OPENER = fileURLToPath(new URL('../store/redis-store-opener.js', import.meta.url));
type Fsync = 'always' | 'everysec';

const LATENCY_MESSAGES = 3000;
const WRITERS = 8;
const PER_WRITER = 5000;

const ms = (value: number) => `${value.toFixed(2)} ms`;
const lines = (child: Child) => child.stdout().split('\n').filter((line) => line !== '');

/** What the consumer in this process handled, and how long each message took from its writer's stamp. */
type Handled = { messages: Envelope[]; latencies: bigint[] };

/** A consumer in this process, and `run` given the descriptor children open the store with. */
async function withConsumer(fsync: Fsync, run: (descriptor: string, handled: Handled, url: string) => Promise<Figure[]>): Promise<Figure[]> {
  const server = await startRedisServer({ appendfsync: fsync });
  const team = 'bench';
  const store = await openRedisStore(server.url, team);
  try {
    const handled: Handled = { messages: [], latencies: [] };
    await store.mailboxes.subscribe('bob', (event) => {
      if (event.type !== 'delivered') return;
      const now = process.hrtime.bigint();
      for (const message of event.messages) {
        handled.messages.push(message);
        if (message.type === 'message') handled.latencies.push(now - parseStamp(message.text).sentNs);
      }
    });
    return await run(JSON.stringify({ url: server.url, team }), handled, server.url);
  } finally {
    await killAll();
    await store.close();
    await server.close();
  }
}

function latencyFigures(latencies: readonly bigint[]): Figure[] {
  const summary = latencySummary(latencies);
  return [
    { label: `latency p50, writer process → handler (${latencies.length} msgs, paced ~1 per ms)`, value: ms(summary.p50Ms) },
    { label: 'latency p99', value: ms(summary.p99Ms), target: '≤ 5 ms', met: summary.p99Ms <= 5 },
    { label: 'latency max', value: ms(summary.maxMs) },
  ];
}

/** Lost and duplicated among `expected` messages. */
function exactlyOnce(handled: readonly Envelope[], expected: number): Figure {
  const ids = new Set(handled.map((m) => m.id));
  const duplicates = handled.length - ids.size;
  const lost = expected - ids.size;
  return { label: 'lost / duplicated', value: `${lost} / ${duplicates}`, target: '0 / 0', met: lost === 0 && duplicates === 0 };
}

async function latency(fsync: Fsync): Promise<Figure[]> {
  return withConsumer(fsync, async (descriptor, handled) => {
    const writer = spawnNode(CHILD, [OPENER, descriptor, 'stream', 'alice', 'bob'], { stdio: ['pipe', 'pipe', 'pipe'] });
    await waitFor(() => lines(writer).includes('ready'), 'the writer');
    writer.process.stdin?.write('go\n');
    await waitFor(() => handled.messages.length >= LATENCY_MESSAGES, `${LATENCY_MESSAGES} messages`, 60_000);
    writer.process.stdin?.write('stop\n');
    await waitFor(() => lines(writer).some((line) => line.startsWith('done')), 'the writer to stop');
    const sent = Number(lines(writer).at(-1)?.replace('done ', ''));
    await waitFor(() => handled.messages.length >= sent, `all ${sent} sent`);
    return [...latencyFigures(handled.latencies), exactlyOnce(handled.messages, sent)];
  });
}

async function throughput(fsync: Fsync): Promise<Figure[]> {
  return withConsumer(fsync, async (descriptor, handled, url) => {
    const writers = Array.from({ length: WRITERS }, (_, i) => spawnNode(CHILD, [OPENER, descriptor, 'write', `w${i}`, 'bob', String(PER_WRITER)], { stdio: ['pipe', 'pipe', 'pipe'] }));
    await waitFor(() => writers.every((w) => lines(w).includes('ready')), 'the writers', 30_000);
    await resetCommandstats(url);
    const start = performance.now();
    for (const writer of writers) writer.process.stdin?.write('go\n');
    const total = WRITERS * PER_WRITER;
    await waitFor(() => handled.messages.length >= total, `all ${total} handled`, 120_000);
    const seconds = (performance.now() - start) / 1000;
    const rate = total / seconds;
    return [
      { label: `${WRITERS} writer processes × ${PER_WRITER} → 1 mailbox: go → last handled`, value: `${Math.round(rate)} msg/s (${seconds.toFixed(2)} s)`, target: '≥ 20,000 msg/s', met: rate >= 20_000 },
      exactlyOnce(handled.messages, total),
      ...(await commandFigures(url, total)),
    ];
  });
}

/**
 * With appendfsync always every write waits for an fsync of the append-only file (Redis shares
 * one among the clients of an event-loop turn), so on a slow disk the disk sets both figures;
 * everysec shows what the store itself costs. Each figure is taken under both.
 */
export const redisMailboxSections: BenchSection[] = (['always', 'everysec'] as const).flatMap((fsync) => [
  { name: `Redis mailbox delivery latency (loopback, appendfsync ${fsync})`, run: () => latency(fsync) },
  { name: `Redis mailbox throughput: ${WRITERS} writer processes → 1 mailbox (loopback, appendfsync ${fsync})`, run: () => throughput(fsync) },
]);

