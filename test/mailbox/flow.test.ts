import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as z from 'zod';
import { DIST, killAll, spawnNode } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { assertExactlyOnceInSendOrder, entriesIn, layoutOf, subscribed } from '../fixtures/mailbox-journal.js';

after(killAll);

const WRITER = join(DIST, 'test/fixtures/mailbox-writer.js');
const WriterReport = z.object({ wrote: z.number().int() });

test('a writer killed mid-line while another streams: its torn line is set aside, its log cleaned up, and the stream still flows', async () => {
  const { home, cleanup } = tempHome();
  after(cleanup);
  const reader = await subscribed(home);
  try {
    // Streams until its stdin closes.
    const stream = spawnNode(WRITER, ['--home', home, '--to', 'bob', '--from', 'alice', '--pace-ms', '1', '--burst', '3'], { stdio: ['pipe', 'pipe', 'pipe'] });
    await waitFor(() => reader.handled.length >= 100, 'the stream to be flowing');
    const torn = spawnNode(WRITER, ['--home', home, '--to', 'bob', '--from', 'mallory', '--count', '100', '--tear-after', '40']);
    assert.equal((await torn.exited).signal, 'SIGKILL');
    // Its death raises no event: the consumer finds out on its own.
    await waitFor(() => reader.setAside.length > 0, 'the torn line to be set aside');
    const handledWhenSetAside = reader.handled.length;
    await waitFor(() => reader.handled.length >= handledWhenSetAside + 100, 'the stream to go on');
    stream.process.stdin?.end();
    assert.deepEqual(await stream.exited, { code: 0, signal: null });
    const count = WriterReport.parse(JSON.parse(stream.stdout().trim())).wrote;
    await waitFor(() => reader.handled.length === count + 40, 'every message', 30_000);
    assertExactlyOnceInSendOrder(reader.handled, new Map([['alice', count], ['mallory', 40]]));
    assert.equal(reader.setAside.length, 1);
    assert.match(reader.setAside[0]?.ref ?? '', /\/bad\/\d+-\d+-[0-9a-f]{10}\.0\.log\.\d+$/);
    assert.match(reader.setAside[0]?.reason ?? '', /^torn: a last line of 60 bytes/);
    const tornLog = /([^/]+\.log)\.\d+$/.exec(reader.setAside[0]?.ref ?? '')?.[1];
    assert.ok(tornLog !== undefined && !entriesIn(layoutOf(home, 'bob').logs).includes(tornLog), "the killed writer's log is deleted");
  } finally {
    await reader.subscription.close();
  }
});

test('burst then silence: the last message of a burst arrives with nothing written after it', async () => {
  const { home, cleanup } = tempHome();
  after(cleanup);
  const reader = await subscribed(home);
  try {
    const count = 1000;
    const writer = spawnNode(WRITER, ['--home', home, '--to', 'bob', '--from', 'alice', '--count', String(count)]);
    // The writer exits after its last delivery: from then on nothing in the team writes.
    assert.deepEqual(await writer.exited, { code: 0, signal: null });
    await waitFor(() => reader.handled.length === count, 'the last message of the burst', 15_000);
    assertExactlyOnceInSendOrder(reader.handled, new Map([['alice', count]]));
  } finally {
    await reader.subscription.close();
  }
});
