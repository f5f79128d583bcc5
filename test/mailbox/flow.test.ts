import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newMessageId } from '../../src/protocol/ids.js';
import { DIST, killAll, spawnNode } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { assertExactlyOnceInSendOrder, entriesIn, layoutOf, subscribed } from '../fixtures/mailbox-journal.js';

after(killAll);

const WRITER = join(DIST, 'test/fixtures/mailbox-writer.js');


test('a torn entry dropped straight into new/ mid-stream is set aside while later messages still flow', async () => {
  const { home, cleanup } = tempHome();
  after(cleanup);
  const reader = await subscribed(home);
  try {
    const count = 600;
    const writer = spawnNode(WRITER, ['--home', home, '--to', 'bob', '--from', 'alice', '--count', String(count), '--pace-ms', '1', '--burst', '3']);
    await waitFor(() => reader.handled.length >= 100, 'the stream to be flowing');
    const torn = `${newMessageId()}.json`;
    writeFileSync(join(layoutOf(home, 'bob').new, torn), '{"type":"message","id":"');
    const handledWhenDropped = reader.handled.length;
    await waitFor(() => reader.setAside.length > 0, 'the torn entry to be set aside');
    assert.equal(reader.setAside[0]?.ref, join(layoutOf(home, 'bob').bad, torn));
    assert.match(reader.setAside[0]?.reason ?? '', /not valid JSON/);
    await waitFor(() => reader.handled.length === count, 'every message, including those after the torn entry', 30_000);
    assert.ok(handledWhenDropped < count, 'messages were still being written after the torn entry');
    assert.deepEqual(await writer.exited, { code: 0, signal: null });
    assertExactlyOnceInSendOrder(reader.handled, new Map([['alice', count]]));
    assert.deepEqual(entriesIn(layoutOf(home, 'bob').bad), [torn]);
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
