import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { MAX_MESSAGE_BYTES } from '../../src/protocol/messages.js';
import { SEAL_BYTES } from '../../src/store/file/mailbox/log-writer.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { textMessage } from '../fixtures/mailbox-envelopes.js';
import { entriesIn } from '../fixtures/mailbox-journal.js';
import { appendToLog, ENDED_WRITER, line, logPath, runningWriter } from '../fixtures/mailbox-logs.js';
import { ids, messages, recorder, teamMaker, withSubscription } from '../fixtures/mailbox-team.js';

const { home, cleanup } = tempHome();
after(cleanup);
const freshTeam = teamMaker(home);

describe('the logs of a mailbox', () => {
  test('lines that are not JSON, not a message or over the limit, and a torn last line, are set aside as <log>.<offset>; the messages around them arrive', async () => {
    const { transport, box } = freshTeam();
    const [before, after] = messages(2);
    assert.ok(before && after);
    const log = logPath(box(), ENDED_WRITER);
    const torn = line(textMessage('alice', 'bob', 'cut short')).slice(0, 50);
    const bad = {
      corrupt: '{"type": "message", nope',
      invalid: JSON.stringify({ ...before, from: 'Alice!' }),
      oversized: `"${'x'.repeat(MAX_MESSAGE_BYTES)}"`,
    };
    const offsets: Record<string, number> = {};
    let offset = 0;
    const append = (name: string, text: string) => {
      offsets[name] = offset;
      appendToLog(log, text);
      offset += Buffer.byteLength(text);
    };
    append('before', line(before));
    for (const [name, text] of Object.entries(bad)) append(name, `${text}\n`);
    append('after', line(after));
    append('torn', torn);

    const peeked = await transport.peek('bob');
    assert.deepEqual(ids(peeked.messages), ids([before, after]));
    assert.deepEqual(
      peeked.problems.map((p) => p.ref),
      ['corrupt', 'invalid', 'oversized', 'torn'].map((name) => `${log} at byte ${offsets[name]}`),
      'peek reports the problems where they are and throws nothing',
    );

    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), ids([before, after]));
      const reasons = new Map(seen.setAside().map((p) => [basename(p.ref), p.reason]));
      const kept = (name: string) => `${basename(log)}.${offsets[name]}`;
      assert.match(reasons.get(kept('corrupt')) ?? '', /not valid JSON/);
      assert.match(reasons.get(kept('invalid')) ?? '', /not a valid message: from/);
      assert.match(reasons.get(kept('oversized')) ?? '', new RegExp(`over the ${MAX_MESSAGE_BYTES}-byte message limit \\(${MAX_MESSAGE_BYTES + 2} bytes`));
      assert.match(reasons.get(kept('torn')) ?? '', /torn: a last line of 50 bytes/);
      assert.equal(readFileSync(join(box().bad, kept('corrupt')), 'utf8'), bad.corrupt, 'the line is kept as evidence');
      assert.equal(readFileSync(join(box().bad, kept('torn')), 'utf8'), torn);
      assert.equal(readFileSync(join(box().bad, kept('oversized'))).length, MAX_MESSAGE_BYTES, 'an oversized line: its first part');
      assert.deepEqual(entriesIn(box().logs), [], 'the log of a writer that has ended is deleted once read');
      assert.deepEqual(await transport.peek('bob'), { messages: [], problems: [] });
    });
  });

  test("a running writer's partial last line is in flight: left alone, and taken once it is complete", async () => {
    const { transport, box } = freshTeam();
    const [first, second] = messages(2);
    assert.ok(first && second);
    const log = logPath(box(), runningWriter());
    const half = Math.floor(line(second).length / 2);
    appendToLog(log, line(first) + line(second).slice(0, half));
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), ids([first]));
      assert.deepEqual(ids((await transport.peek('bob')).messages), [], 'peek does not show it either');
      appendToLog(log, line(second).slice(half));
      await waitFor(() => seen.delivered().length === 2, 'the completed line');
      assert.deepEqual(ids(seen.delivered()), ids([first, second]));
      assert.deepEqual(seen.setAside(), []);
      assert.deepEqual(entriesIn(box().logs), [basename(log)], 'the log of a running writer stays');
    });
  });

  test('a sealed log (its writer has opened a later one) is read to its end, its torn tail set aside, and deleted', async () => {
    const { transport, box } = freshTeam();
    const [first, second] = messages(2);
    assert.ok(first && second);
    const writer = runningWriter();
    appendToLog(logPath(box(), writer, 0), `${line(first)}{"type":"mess`);
    appendToLog(logPath(box(), writer, 1), line(second));
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), ids([first, second]));
      assert.deepEqual(seen.setAside().map((p) => basename(p.ref)), [`${writer}.0.log.${line(first).length}`]);
      assert.deepEqual(entriesIn(box().logs), [`${writer}.1.log`]);
    });
  });

  test('a writer seals its own log past its size bound, and the consumer deletes the sealed log once read', async () => {
    const { transport, box } = freshTeam();
    const big = 'x'.repeat(64 * 1024);
    const sent = Array.from({ length: Math.ceil(SEAL_BYTES / big.length) + 2 }, (_, i) => textMessage('alice', 'bob', `${i} ${big}`));
    for (const message of sent) await transport.deliver('bob', message);
    const logs = entriesIn(box().logs).sort();
    assert.deepEqual(logs.map((name) => name.split('.')[1]), ['0', '1']);
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), ids(sent));
      assert.deepEqual(entriesIn(box().logs), [logs[1]], 'the sealed log is gone, the open one stays');
    });
  });

  test("several writers' messages are merged by id, and each writer keeps its own order whatever its ids say", async () => {
    const { transport, box } = freshTeam();
    const m = messages(6);
    const [a, b, c] = [runningWriter(), runningWriter(), runningWriter()];
    const put = (writer: string, indexes: number[]) => appendToLog(logPath(box(), writer), indexes.map((i) => line(m[i] ?? assert.fail())).join(''));
    put(a, [0, 2]);
    put(b, [1, 3]);
    put(c, [5, 4]);
    const expected = [0, 1, 2, 3, 5, 4].map((i) => m[i]?.id);
    assert.deepEqual(ids((await transport.peek('bob')).messages), expected);
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), expected);
    });
  });

  test('another file put in the place of a log is read from its start', async () => {
    const { transport, box } = freshTeam();
    const [first, second] = messages(2);
    assert.ok(first && second);
    const log = logPath(box(), runningWriter());
    appendToLog(log, line(first));
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), ids([first]));
      // Shorter than what was read of the file it replaces: its lines must not be skipped.
      // Written beside logs/ first: a stray file in logs/ would be set aside.
      const replacement = join(box().dir, 'replacement');
      writeFileSync(replacement, line(second));
      renameSync(replacement, log);
      await waitFor(() => seen.delivered().length === 2, 'the replacement to be read');
      assert.deepEqual(ids(seen.delivered()), ids([first, second]));
    });
  });
});
