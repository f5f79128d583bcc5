import { historyOf } from '../helpers/history.js';
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { MAX_MESSAGE_BYTES } from '../../src/protocol/messages.js';
import { appendLines } from '../../src/store/file/jsonl.js';
import { killAll } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { entriesIn } from '../fixtures/mailbox-journal.js';
import { ids, messages, recorder, teamMaker, withSubscription } from '../fixtures/mailbox-team.js';

after(killAll);

const { home: sharedHome, cleanup } = tempHome();
after(cleanup);
const freshTeam = teamMaker(sharedHome);

describe('LogTransport', () => {
  test('peek shows delivered messages oldest first and consumes nothing', async () => {
    const { transport, box } = freshTeam();
    const sent = messages(3);
    for (const message of sent) await transport.deliver('bob', message);
    const first = await transport.peek('bob');
    const second = await transport.peek('bob');
    assert.deepEqual(ids(first.messages), ids(sent));
    assert.deepEqual(first, second);
    assert.deepEqual(first.problems, []);
    assert.equal(entriesIn(box().logs).length, 1, 'one log: this process is one writer');
    assert.deepEqual(entriesIn(box().dir), ['logs'], 'nothing else is made by a delivery');
  });

  test('subscribe hands over the backlog in send order, journals it and records it read; later messages follow', async () => {
    const { transport } = freshTeam();
    const backlog = messages(5);
    for (const message of backlog) await transport.deliver('bob', message);
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), ids(backlog), 'the backlog is delivered before subscribe resolves');
      assert.deepEqual((await transport.peek('bob')).messages, []);
      const later = messages(3, 'carol');
      for (const message of later) await transport.deliver('bob', message);
      await waitFor(() => seen.delivered().length === 8, 'the later messages');
      assert.deepEqual(ids(seen.delivered()), ids([...backlog, ...later]));
      assert.deepEqual(ids(await historyOf(transport, 'bob')), ids([...backlog, ...later]));
      assert.deepEqual((await transport.peek('bob')).messages, []);
    });
  });

  test('a restarted consumer resumes where its checkpoint says: nothing is delivered twice', async () => {
    const { transport } = freshTeam();
    const [first, second] = [messages(4), messages(2, 'carol')];
    for (const message of first) await transport.deliver('bob', message);
    const before = recorder();
    await withSubscription(transport.subscribe('bob', before.listener), async () => undefined);
    for (const message of second) await transport.deliver('bob', message);
    const after = recorder();
    await withSubscription(transport.subscribe('bob', after.listener), async () => {
      assert.deepEqual(ids(before.delivered()), ids(first));
      assert.deepEqual(ids(after.delivered()), ids(second));
    });
  });

  test('a message whose id is already journaled is not delivered again', async () => {
    const { transport, box } = freshTeam();
    const [handled, fresh] = messages(2);
    assert.ok(handled && fresh);
    mkdirSync(box().dir, { recursive: true });
    // A consumer killed between its journal write and its checkpoint leaves exactly this behind.
    appendLines(box().journal, [handled]);
    await transport.deliver('bob', handled);
    await transport.deliver('bob', fresh);
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), ids([fresh]));
      assert.deepEqual(ids(await historyOf(transport, 'bob')), ids([handled, fresh]));

      // A sender retrying a message the consumer already handled: dropped too.
      await transport.deliver('bob', fresh);
      await waitFor(async () => (await transport.peek('bob')).messages.length === 0, 'the resent duplicate to be read');
      assert.deepEqual(ids(seen.delivered()), ids([fresh]));
    });
  });

  test('a torn journal tail is cut on subscribe, and the batch it belonged to is delivered again', async () => {
    const { transport, box } = freshTeam();
    const [kept, torn] = messages(2);
    assert.ok(kept && torn);
    mkdirSync(box().dir, { recursive: true });
    appendLines(box().journal, [kept]);
    appendFileSync(box().journal, JSON.stringify(torn).slice(0, 40));
    await transport.deliver('bob', torn);
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), ids([torn]));
      assert.deepEqual(ids(await historyOf(transport, 'bob')), ids([kept, torn]));
    });
  });

  test('the journal rotates past its size limit, keeps a bounded number of archives, and history reads them', async () => {
    const maxBytes = 2_000;
    const { transport, box } = freshTeam({ journalMaxBytes: maxBytes, journalArchives: 2 });
    const seen = recorder();
    const sent = messages(80);
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      for (const [index, message] of sent.entries()) {
        await transport.deliver('bob', message);
        await waitFor(() => seen.delivered().length === index + 1, `message ${index}`);
      }
    });
    const archives = readdirSync(box().dir).filter((name) => /^delivered\.\d+\.jsonl$/.test(name));
    assert.equal(archives.length, 2);
    const lineBytes = Buffer.byteLength(`${JSON.stringify(sent[0])}\n`);
    assert.ok(statSync(box().journal).size < maxBytes + lineBytes, 'the current journal stays near its limit');
    const history = await historyOf(transport, 'bob');
    assert.ok(history.length > 0 && history.length < sent.length, `history holds what is kept (${history.length})`);
    assert.deepEqual(ids(history), ids(sent.slice(-history.length)), 'the newest messages, oldest first');
  });

  test('a backlog larger than a batch is handed over in bounded batches, in order', async () => {
    const { transport } = freshTeam();
    const sent = messages(2_500);
    for (const message of sent) await transport.deliver('bob', message);
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), ids(sent));
      assert.equal(seen.batches(), 3, '1,000 per batch at most');
    });
  });

  test('deliver refuses an id that is no message id, an oversized message and an invalid agent name', async () => {
    const { transport } = freshTeam();
    const [message] = messages(1);
    assert.ok(message);
    await assert.rejects(transport.deliver('bob', { ...message, id: '../../escape' }), /'..\/..\/escape' is not a message id/);
    await assert.rejects(transport.deliver('bob', { ...message, text: 'x'.repeat(MAX_MESSAGE_BYTES) }), /byte message to bob: the limit/);
    await assert.rejects(transport.deliver('../etc', message), /agent name/);
    await assert.rejects(transport.subscribe('Bob', () => undefined), /agent name/);
  });

  test('durable mode (fsync of logs, their directory, checkpoint and journal) delivers and consumes the same way', async () => {
    const { transport } = freshTeam({ durable: true });
    const sent = messages(3);
    for (const message of sent) await transport.deliver('bob', message);
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), ids(sent));
      assert.deepEqual(ids(await historyOf(transport, 'bob')), ids(sent));
      assert.deepEqual((await transport.peek('bob')).messages, []);
    });
  });

  test('after close resolves the subscription consumes nothing more: the next subscriber gets it', async () => {
    const { transport } = freshTeam();
    const first = recorder();
    const subscription = await transport.subscribe('bob', first.listener);
    await subscription.close();
    const [message] = messages(1);
    assert.ok(message);
    await transport.deliver('bob', message);
    const second = recorder();
    await withSubscription(transport.subscribe('bob', second.listener), async () => {
      assert.deepEqual(ids(second.delivered()), ids([message]));
      assert.deepEqual(first.delivered(), []);
    });
  });
});
