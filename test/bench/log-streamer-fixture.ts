import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { logLineOf } from '../../src/store/agent-log.js';

/**
 * Teammates streaming, for the REPL bench: appends a text delta to each named agent's log in
 * <dir> every <pace-ms>, and a turn's end every 50 deltas, as many model calls at once would.
 * Runs until its stdin closes (the bench ends it, or the bench died): it never outlives it.
 */
const [dir, paceMs, ...names] = process.argv.slice(2);
if (dir === undefined || paceMs === undefined || names.length === 0) throw new Error('usage: log-streamer-fixture <dir> <pace-ms> <name>...');
let count = 0;
const timer = setInterval(() => {
  count++;
  for (const name of names) {
    const file = join(dir, `${name}.log`);
    appendFileSync(file, logLineOf({ type: 'text_delta', text: ` word${count}` }));
    if (count % 50 === 0) appendFileSync(file, logLineOf({ type: 'turn_end', stopReason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 }, text: '', model: 'm' }));
  }
}, Number(paceMs));
process.stdin.resume();
process.stdin.on('end', () => {
  clearInterval(timer);
  process.exit(0);
});
