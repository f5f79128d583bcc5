import { killAll } from '../helpers/children.js';
import { mailboxSections } from './mailbox.js';
import { redisMailboxSections } from './redis-mailbox.js';
import { hostSpawnSections } from './host-spawn.js';
import { agentSections } from './agents.js';
import { uiSections } from './ui.js';
import { sandboxSections } from './sandbox.js';
import { promptCacheSections } from './prompt-cache.js';
import { taskBoardSections } from './task-board.js';
import type { BenchSection, Figure } from './section.js';

/** Every benchmark section, in the order printed. Add yours here. */
// The Redis store's mailbox right after the file store's, so the two are read side by side.
const ALL: BenchSection[] = [...mailboxSections, ...redisMailboxSections, ...agentSections, ...hostSpawnSections, ...sandboxSections, ...promptCacheSections, ...taskBoardSections, ...uiSections];

/** `run.js <word>…` runs only the sections whose name holds one of the words (`run.js mailbox`). */
const only = process.argv.slice(2);
const SECTIONS = only.length === 0 ? ALL : ALL.filter((section) => only.some((word) => section.name.includes(word)));

/** The whole run is bounded: past this, whatever still runs is killed and the run fails. */
const RUN_DEADLINE_MS = 5 * 60 * 1000;

function print(figures: Figure[]): void {
  const width = Math.max(...figures.map((f) => f.label.length));
  const valueWidth = Math.max(...figures.map((f) => f.value.length));
  for (const figure of figures) {
    const target = figure.target === undefined ? '' : `   target ${figure.target}${figure.met === false ? '  MISSED' : '  ok'}`;
    console.log(`  ${figure.label.padEnd(width)}  ${figure.value.padStart(valueWidth)}${target}`);
  }
}

const watchdog = setTimeout(() => {
  console.error(`bench: still running after ${RUN_DEADLINE_MS / 1000} s, giving up`);
  void killAll().finally(() => process.exit(2));
}, RUN_DEADLINE_MS);
watchdog.unref();

console.log(`teams bench — node ${process.version}, ${process.platform}/${process.arch}`);
if (SECTIONS.length === 0) {
  console.error(`bench: no section's name holds ${only.join(' or ')}`);
  process.exit(2);
}
let missed = 0;
try {
  for (const section of SECTIONS) {
    console.log(`\n${section.name}`);
    const figures = await section.run();
    print(figures);
    missed += figures.filter((f) => f.met === false).length;
    await killAll();
  }
} finally {
  await killAll();
  clearTimeout(watchdog);
}
console.log(missed === 0 ? '\nall targets met' : `\n${missed} target(s) missed`);
process.exitCode = missed === 0 ? 0 : 1;
