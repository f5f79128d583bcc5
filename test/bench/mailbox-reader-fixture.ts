import { parseArgs } from 'node:util';
import { LogTransport } from '../../src/store/file/mailbox/log-transport.js';
import { teamPaths } from '../../src/team/paths.js';
import { parseStamp } from '../fixtures/mailbox-envelopes.js';
import { cpuMicros, latencySummary, type ReaderReport } from './stats.js';

/**
 * The bench's consuming process: subscribes to one mailbox, takes the latency of each stamped
 * message at its handler, and once --expect distinct messages arrived (or on SIGTERM) prints
 * a ReaderReport as JSON and exits.
 */
const { values } = parseArgs({
  options: { home: { type: 'string' }, agent: { type: 'string' }, expect: { type: 'string' } },
});
if (values.home === undefined || values.agent === undefined || values.expect === undefined) throw new Error('--home, --agent and --expect are required');
const expect = Number(values.expect);
const transport = new LogTransport(teamPaths(values.home, 'default').root);

const seen = new Set<string>();
const latenciesNs: bigint[] = [];
let duplicates = 0;
let lastNs = 0n;
let finished = false;
let readyCpu: NodeJS.CpuUsage | undefined = undefined;

// Not awaited here: the backlog drained during subscribe may already complete the count.
const subscribed = transport.subscribe(values.agent, (event) => {
  if (event.type !== 'delivered') return;
  const now = process.hrtime.bigint();
  for (const message of event.messages) {
    if (seen.has(message.id)) duplicates++;
    seen.add(message.id);
    if (message.type === 'message') latenciesNs.push(now - parseStamp(message.text).sentNs);
  }
  lastNs = now;
  if (seen.size >= expect) void finish();
});

async function finish(): Promise<void> {
  if (finished) return;
  finished = true;
  await (await subscribed).close();
  const report: ReaderReport = {
    received: seen.size,
    duplicates,
    ...latencySummary(latenciesNs),
    lastNs: String(lastNs),
    cpuUs: cpuMicros(readyCpu),
    maxRssKiB: process.resourceUsage().maxRSS,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

await subscribed;
process.once('SIGTERM', () => void finish());
readyCpu = process.cpuUsage();
process.stdout.write('ready\n');
