import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DIST, killAll, spawnNode } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { assertExactlyOnceInSendOrder, journaled, peekAt, subscribed } from '../fixtures/mailbox-journal.js';

after(killAll);

const WRITER = join(DIST, 'test/fixtures/mailbox-writer.js');
const WRITERS = 8;
const PER_WRITER = 2000;

test(`${WRITERS} writer processes × ${PER_WRITER} messages into one mailbox: each arrives exactly once, in send order`, async () => {
  const { home, cleanup } = tempHome();
  after(cleanup);
  const { handled, setAside, subscription } = await subscribed(home);
  try {
    const writers = Array.from({ length: WRITERS }, (_, w) =>
      spawnNode(WRITER, ['--home', home, '--to', 'bob', '--from', `writer${w}`, '--count', String(PER_WRITER)]),
    );
    const total = WRITERS * PER_WRITER;
    await waitFor(() => handled.length >= total, `${total} messages to be handled`, 60_000);
    for (const writer of writers) assert.deepEqual(await writer.exited, { code: 0, signal: null });
    const sent = new Map(Array.from({ length: WRITERS }, (_, w) => [`writer${w}`, PER_WRITER]));
    assertExactlyOnceInSendOrder(handled, sent);
    assertExactlyOnceInSendOrder(journaled(home, 'bob'), sent);
    assert.deepEqual(setAside, []);
    assert.deepEqual(await peekAt(home, 'bob'), { messages: [], problems: [] }, 'nothing left unread');
  } finally {
    await subscription.close();
  }
});
