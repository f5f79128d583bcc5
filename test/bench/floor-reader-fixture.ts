import { closeSync, fstatSync, openSync, readSync, watch } from 'node:fs';
import { cpuMicros, latencySummary, type ReaderReport } from './stats.js';

/**
 * The floor: raw fs.watch on one file, no chokidar, no mailbox. Reads the lines appended since
 * the last event and takes each one's latency the way the mailbox reader does, so the gap
 * between the two is what the mailbox adds to the kernel's notification.
 */
const [file, expect] = process.argv.slice(2);
if (file === undefined || expect === undefined) throw new Error('usage: floor-reader-fixture <file> <expect>');
const latenciesNs: bigint[] = [];
let offset = 0;
let pending = '';
let lastNs = 0n;

const watcher = watch(file, () => {
  const now = process.hrtime.bigint();
  const fd = openSync(file, 'r');
  const buffer = Buffer.alloc(Math.max(0, fstatSync(fd).size - offset));
  const got = readSync(fd, buffer, 0, buffer.length, offset);
  closeSync(fd);
  offset += got;
  const lines = (pending + buffer.toString('utf8', 0, got)).split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) latenciesNs.push(now - BigInt(line));
  lastNs = now;
  if (latenciesNs.length >= Number(expect)) finish();
});

function finish(): void {
  watcher.close();
  const report: ReaderReport = {
    received: latenciesNs.length,
    duplicates: 0,
    ...latencySummary(latenciesNs),
    lastNs: String(lastNs),
    cpuUs: cpuMicros(readyCpu),
    maxRssKiB: process.resourceUsage().maxRSS,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

process.once('SIGTERM', finish);
const readyCpu = process.cpuUsage();
process.stdout.write('ready\n');
