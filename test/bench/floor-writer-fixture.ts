import { appendFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/** The floor's writer: appends `<monotonic ns>` lines to one file, one every <pace-ms>. */
const [file, count, paceMs] = process.argv.slice(2);
if (file === undefined || count === undefined || paceMs === undefined) throw new Error('usage: floor-writer-fixture <file> <count> <pace-ms>');
for (let i = 0; i < Number(count); i++) {
  appendFileSync(file, `${process.hrtime.bigint()}\n`);
  await delay(Number(paceMs));
}
