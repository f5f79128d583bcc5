import { historyOf } from '../helpers/history.js';
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newMessageId } from '../../src/protocol/ids.js';
import { MAX_MESSAGE_BYTES } from '../../src/protocol/messages.js';
import { appendLines } from '../../src/files/jsonl.js';
import { killAll } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { textMessage } from '../fixtures/mailbox-envelopes.js';
import { entriesIn } from '../fixtures/mailbox-journal.js';
import { ids, messages, recorder, teamMaker, withSubscription } from '../fixtures/mailbox-team.js';

after(killAll);

const { home: sharedHome, cleanup } = tempHome();
after(cleanup);
const freshTeam = teamMaker(sharedHome);

describe('MaildirTransport', () => {
  test('peek shows delivered messages oldest first and consumes nothing', async () => {
    const { transport, box } = freshTeam();
    const sent = messages(3);
    for (const message of sent) await transport.deliver('bob', message);
    const first = await transport.peek('bob');
    const second = await transport.peek('bob');
    assert.deepEqual(ids(first.messages), ids(sent));
    assert.deepEqual(first, second);
    assert.deepEqual(first.problems, []);
    assert.equal(entriesIn(box().new).length, 3);
    assert.deepEqual(entriesIn(box().tmp), []);
  });

  test('subscribe hands over the backlog in send order, journals it and empties new/; later messages follow', async () => {
    const { transport, box } = freshTeam();
    const backlog = messages(5);
    for (const message of backlog) await transport.deliver('bob', message);
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), ids(backlog), 'the backlog is delivered before subscribe resolves');
      assert.deepEqual(entriesIn(box().new), []);
      const later = messages(3, 'carol');
      for (const message of later) await transport.deliver('bob', message);
      await waitFor(() => seen.delivered().length === 8, 'the later messages');
      assert.deepEqual(ids(seen.delivered()), ids([...backlog, ...later]));
      assert.deepEqual(ids(await historyOf(transport, 'bob')), ids([...backlog, ...later]));
      assert.deepEqual((await transport.peek('bob')).messages, []);
    });
  });

  test('corrupt, schema-invalid, torn and misnamed entries are set aside; the messages around them arrive', async () => {
    const { transport, box } = freshTeam();
    const [before, after, later] = messages(3);
    assert.ok(before && after && later);
    await transport.deliver('bob', before);
    mkdirSync(box().new, { recursive: true });
    const torn = JSON.stringify(textMessage('alice', 'bob', 'cut short'));
    const bad = {
      corrupt: `${newMessageId()}.json`,
      invalid: `${newMessageId()}.json`,
      torn: `${newMessageId()}.json`,
      misnamed: `${newMessageId()}.json`,
      stray: 'notes.txt',
    };
    writeFileSync(join(box().new, bad.corrupt), '{"type": "message", nope');
    writeFileSync(join(box().new, bad.invalid), JSON.stringify({ type: 'message', id: bad.invalid.slice(0, 20), from: 'Alice!' }));
    writeFileSync(join(box().new, bad.torn), torn.slice(0, torn.length / 2));
    writeFileSync(join(box().new, bad.misnamed), JSON.stringify(textMessage('alice', 'bob', 'wrong name')));
    writeFileSync(join(box().new, bad.stray), 'hello');
    await transport.deliver('bob', after);

    const peeked = await transport.peek('bob');
    assert.deepEqual(ids(peeked.messages), ids([before, after]));
    assert.equal(peeked.problems.length, 5, 'peek reports the problems and throws nothing');

    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), ids([before, after]));
      const reasons = new Map(seen.setAside().map((p) => [p.ref.split('/').at(-1), p.reason]));
      assert.match(reasons.get(bad.corrupt) ?? '', /not valid JSON/);
      assert.match(reasons.get(bad.invalid) ?? '', /not a valid message: .*from/);
      assert.match(reasons.get(bad.torn) ?? '', /not valid JSON/);
      assert.match(reasons.get(bad.misnamed) ?? '', /file name says id/);
      assert.match(reasons.get(bad.stray) ?? '', /not a message file name/);
      assert.deepEqual(entriesIn(box().bad).sort(), Object.values(bad).sort(), 'kept in bad/ as evidence');
      assert.deepEqual(entriesIn(box().new), []);

      // The same while subscribed: an entry dropped straight into new/, then a real message.
      const dropped = `${newMessageId()}.json`;
      writeFileSync(join(box().new, dropped), '');
      await transport.deliver('bob', later);
      await waitFor(() => seen.delivered().length === 3, 'the message after the dropped entry');
      assert.match(seen.setAside().find((p) => p.ref.endsWith(dropped))?.reason ?? '', /empty file/);
    });
  });

  test('a message whose id is already journaled is removed from new/ without being delivered again', async () => {
    const { transport, box } = freshTeam();
    const [handled, fresh] = messages(2);
    assert.ok(handled && fresh);
    mkdirSync(box().dir, { recursive: true });
    // A consumer killed between its journal write and its unlink leaves exactly this behind.
    appendLines(box().journal, [handled]);
    await transport.deliver('bob', handled);
    await transport.deliver('bob', fresh);
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), ids([fresh]));
      assert.deepEqual(entriesIn(box().new), []);
      assert.deepEqual(ids(await historyOf(transport, 'bob')), ids([handled, fresh]));

      // A sender retrying a message the consumer already handled: dropped too.
      await transport.deliver('bob', fresh);
      await waitFor(() => entriesIn(box().new).length === 0, 'the resent duplicate to be removed');
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

  test('deliver refuses an id that is no message id, an oversized message and an invalid agent name', async () => {
    const { transport } = freshTeam();
    const [message] = messages(1);
    assert.ok(message);
    await assert.rejects(transport.deliver('bob', { ...message, id: '../../escape' }), /'..\/..\/escape' is not a message id/);
    await assert.rejects(transport.deliver('bob', { ...message, text: 'x'.repeat(MAX_MESSAGE_BYTES) }), /byte message to bob: the limit/);
    await assert.rejects(transport.deliver('../etc', message), /agent name/);
    await assert.rejects(transport.subscribe('Bob', () => undefined), /agent name/);
  });

  test('durable mode (fsync of files, directories and journal) delivers and consumes the same way', async () => {
    const { transport, box } = freshTeam({ durable: true });
    const sent = messages(3);
    for (const message of sent) await transport.deliver('bob', message);
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), ids(sent));
      assert.deepEqual(ids(await historyOf(transport, 'bob')), ids(sent));
      assert.deepEqual(entriesIn(box().new), []);
    });
  });

  test('subscribe removes temporaries abandoned by senders that died an hour ago or more, and keeps recent ones', async () => {
    const { transport, box } = freshTeam();
    mkdirSync(box().tmp, { recursive: true });
    const abandoned = join(box().tmp, `${newMessageId()}.json`);
    const inFlight = join(box().tmp, `${newMessageId()}.json`);
    writeFileSync(abandoned, '{"type":');
    writeFileSync(inFlight, '{"type":');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(abandoned, twoHoursAgo, twoHoursAgo);
    await withSubscription(transport.subscribe('bob', () => undefined), async () => {
      assert.deepEqual(entriesIn(box().tmp), [inFlight.split('/').at(-1)]);
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
