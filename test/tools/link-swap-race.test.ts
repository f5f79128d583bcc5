import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { realFileIO, type FileIO } from '../../src/tools/files.js';
import { DIST, killAll, spawnNode } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

/**
 * A command of another agent swaps a directory between a real one and a link out of the
 * working directory while the file tools write and read through it: the confinement check
 * may see the real directory and the open the link, so only the descriptor walk keeps the
 * harness from writing or reading outside.
 */
const SWAPPER = join(DIST, 'test/fixtures/link-swapper.js');
const ATTEMPTS = 1000;
// Every way a raced call may fail, each a message the model can act on: the walk's own, the
// confinement check's when it saw the link (or saw it with its target just moved away), and a
// read's when it came while the directory was away.
const CLEAR = new RegExp(
  [
    "^path 'swap/x\\.txt' passes through a symbolic link at 'swap' that was not there when the path was checked",
    "^path 'swap/x\\.txt' is outside the working directory .* \\(through a symbolic link to ",
    "^path 'swap/x\\.txt' is a symbolic link to a file that does not exist$",
    "^file 'swap/x\\.txt' does not exist$",
  ].join('|'),
);

const temp = tempHome('teams-link-race-');
after(async () => {
  await killAll();
  temp.cleanup();
});

/** A working directory whose `swap` a separate process keeps swapping with a link to `elsewhere`. */
async function race(name: string): Promise<{ files: FileIO; elsewhere: string }> {
  const root = join(temp.home, name, 'w');
  const elsewhere = join(temp.home, name, 'elsewhere');
  mkdirSync(join(root, 'swap'), { recursive: true });
  mkdirSync(elsewhere);
  writeFileSync(join(root, 'swap/x.txt'), 'inside\n');
  writeFileSync(join(elsewhere, 'x.txt'), 'SECRET\n');
  const swapper = spawnNode(SWAPPER, [join(root, 'swap'), elsewhere]);
  await waitFor(() => swapper.stdout().includes('swapping\n') || swapper.process.exitCode !== null, 'the swapper to start');
  assert.equal(swapper.process.exitCode, null, swapper.stderr());
  return { files: realFileIO(root), elsewhere };
}

type Tally = { done: number; failed: number; unclear: string[] };

async function attempt(tally: Tally, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
    tally.done++;
  } catch (error) {
    tally.failed++;
    const message = error instanceof Error ? error.message : String(error);
    if (!CLEAR.test(message)) tally.unclear.push(message);
  }
}

describe(`a directory swapped for a link out of the working directory, ${ATTEMPTS} times`, () => {
  test('never carries a write outside', async (t) => {
    const { files, elsewhere } = await race('write');
    const tally: Tally = { done: 0, failed: 0, unclear: [] };
    for (let i = 0; i < ATTEMPTS; i++) await attempt(tally, () => files.writeText('swap/x.txt', `write ${i}\n`));
    t.diagnostic(`writes: ${tally.done} landed inside, ${tally.failed} refused`);
    assert.equal(readFileSync(join(elsewhere, 'x.txt'), 'utf8'), 'SECRET\n');
    assert.deepEqual(readdirSync(elsewhere), ['x.txt']);
    assert.deepEqual(tally.unclear, []);
    assert.ok(tally.failed > 0 && tally.done > 0, 'the race was run: some writes landed, some were refused');
  });

  test('never reads a file outside', async (t) => {
    const { files } = await race('read');
    const tally: Tally = { done: 0, failed: 0, unclear: [] };
    const read: string[] = [];
    for (let i = 0; i < ATTEMPTS; i++) await attempt(tally, async () => read.push(await files.readText('swap/x.txt')));
    t.diagnostic(`reads: ${tally.done} read inside, ${tally.failed} refused`);
    assert.deepEqual(read.filter((text) => text !== 'inside\n'), []);
    assert.deepEqual(tally.unclear, []);
    assert.ok(tally.failed > 0 && tally.done > 0, 'the race was run: some reads succeeded, some were refused');
  });
});
