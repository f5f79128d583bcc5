import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDrainRunner, watchForHints } from '../../src/lib/wakeup.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { killAll } from '../helpers/children.js';

after(killAll);

/** A drain the test finishes by hand, to hold the runner inside a drain. */
function gatedDrain() {
  let drains = 0;
  let release: () => void = () => undefined;
  const drain = () => {
    drains++;
    return new Promise<void>((resolve) => (release = resolve));
  };
  return { drain, drains: () => drains, release: () => release() };
}

describe('createDrainRunner', () => {
  test('a hint runs a drain, and idle() resolves once it is over', async () => {
    let drains = 0;
    const runner = createDrainRunner(() => {
      drains++;
    });
    runner.hint();
    await runner.idle();
    assert.equal(drains, 1);
  });

  test('hints during a drain coalesce into exactly one more drain after it', async () => {
    const gate = gatedDrain();
    const runner = createDrainRunner(gate.drain);
    runner.hint();
    await waitFor(() => gate.drains() === 1, 'the first drain to start');
    runner.hint();
    runner.hint();
    runner.hint();
    gate.release();
    await waitFor(() => gate.drains() === 2, 'the drain owed to the hints');
    gate.release();
    await runner.idle();
    assert.equal(gate.drains(), 2);
  });

  test('hints in the same turn share one drain', async () => {
    let drains = 0;
    const runner = createDrainRunner(() => {
      drains++;
    });
    for (let i = 0; i < 10; i++) runner.hint();
    await runner.idle();
    assert.equal(drains, 1);
  });

  test('hints that keep coming from later turns run the drain without waiting for the one scheduled', async () => {
    let drains = 0;
    const runner = createDrainRunner(() => {
      drains++;
    });
    runner.hint();
    // Another turn, as the next watcher event is.
    await Promise.resolve();
    // Hints with no turn given to anything scheduled in between, as a flood of watcher events
    // holds a reader's event loop: one of them runs the drain once it has waited long enough.
    const deadline = performance.now() + 1_000;
    while (drains === 0 && performance.now() < deadline) runner.hint();
    assert.equal(drains, 1, 'the drain ran inside a hint, before the one scheduled had its turn');
    await runner.idle();
    assert.equal(drains, 1, 'and the one scheduled is not run again for nothing');
  });

  test('a failing drain goes to onError and later hints still drain', async () => {
    const errors: unknown[] = [];
    let drains = 0;
    const runner = createDrainRunner(
      () => {
        drains++;
        if (drains === 1) throw new Error('disk on fire');
      },
      (error) => errors.push(error),
    );
    runner.hint();
    await runner.idle();
    runner.hint();
    await runner.idle();
    assert.equal(drains, 2);
    assert.deepEqual(errors.map((e) => (e instanceof Error ? e.message : e)), ['disk on fire']);
  });

  test('close waits for the drain under way and ignores later hints', async () => {
    const gate = gatedDrain();
    const runner = createDrainRunner(gate.drain);
    runner.hint();
    await waitFor(() => gate.drains() === 1, 'the drain to start');
    runner.hint();
    const closed = runner.close();
    gate.release();
    await closed;
    runner.hint();
    await runner.idle();
    assert.equal(gate.drains(), 1);
  });
});

describe('watchForHints', () => {
  const { home, cleanup } = tempHome();
  after(cleanup);

  test('a file renamed into a watched directory gives a hint', async () => {
    const dir = join(home, 'dir-watch', 'new');
    const staging = join(home, 'dir-watch', 'tmp');
    mkdirSync(dir, { recursive: true });
    mkdirSync(staging, { recursive: true });
    let hints = 0;
    const stop = await watchForHints([dir], () => hints++);
    writeFileSync(join(staging, 'a.json'), '{}');
    renameSync(join(staging, 'a.json'), join(dir, 'a.json'));
    try {
      await waitFor(() => hints > 0, 'a hint for the rename');
    } finally {
      await stop();
    }
  });

  test('a watched file that does not exist yet gives hints once created and on each append', async () => {
    const file = join(home, 'file-watch', 'audit.jsonl');
    mkdirSync(join(home, 'file-watch'), { recursive: true });
    let hints = 0;
    const stop = await watchForHints([file], () => hints++);
    try {
      writeFileSync(file, 'one\n');
      await waitFor(() => hints > 0, 'a hint for the file appearing');
      const afterCreate = hints;
      appendFileSync(file, 'two\n');
      await waitFor(() => hints > afterCreate, 'a hint for the append');
      // Replaced by a rename (an atomic rewrite): a watch on the old inode would go deaf here.
      for (let round = 0; round < 2; round++) {
        const before = hints;
        writeFileSync(`${file}.tmp`, `rewrite ${round}\n`);
        renameSync(`${file}.tmp`, file);
        await waitFor(() => hints > before, `a hint for rewrite ${round}`);
      }
    } finally {
      await stop();
    }
  });

  test('a path whose directory does not exist is refused', async () => {
    await assert.rejects(watchForHints([join(home, 'no-such-dir', 'file')], () => undefined), /not a directory/);
  });
});
