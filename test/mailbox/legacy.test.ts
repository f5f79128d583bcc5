import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newMessageId } from '../../src/protocol/ids.js';
import { appendLines } from '../../src/store/file/jsonl.js';
import { historyOf } from '../helpers/history.js';
import { tempHome } from '../helpers/temp.js';
import { textMessage } from '../fixtures/mailbox-envelopes.js';
import { entriesIn } from '../fixtures/mailbox-journal.js';
import { ids, messages, recorder, teamMaker, withSubscription } from '../fixtures/mailbox-team.js';

const { home, cleanup } = tempHome();
after(cleanup);
const freshTeam = teamMaker(home);

/** Leave a file in the old layout's directory, as an older version did. */
function leave(dir: string, name: string, content: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), content);
}

describe('a mailbox an older version left (Maildir: tmp/ → new/, a file per message)', () => {
  test('new/ is taken first, in send order, its bad entries set aside; tmp/ leftovers are set aside; both are removed', async () => {
    const { transport, box } = freshTeam();
    const [before, after, logged] = messages(3);
    assert.ok(before && after && logged);
    const torn = JSON.stringify(textMessage('alice', 'bob', 'cut short'));
    const bad = {
      corrupt: `${newMessageId()}.json`,
      invalid: `${newMessageId()}.json`,
      torn: `${newMessageId()}.json`,
      misnamed: `${newMessageId()}.json`,
      stray: 'notes.txt',
    };
    const { legacyNew, legacyTmp } = box();
    leave(legacyNew, `${before.id}.json`, JSON.stringify(before));
    leave(legacyNew, bad.corrupt, '{"type": "message", nope');
    leave(legacyNew, bad.invalid, JSON.stringify({ type: 'message', id: bad.invalid.slice(0, 20), from: 'Alice!' }));
    leave(legacyNew, bad.torn, torn.slice(0, torn.length / 2));
    leave(legacyNew, bad.misnamed, JSON.stringify(textMessage('alice', 'bob', 'wrong name')));
    leave(legacyNew, bad.stray, 'hello');
    leave(legacyNew, `${after.id}.json`, JSON.stringify(after));
    const leftover = `${newMessageId()}.json`;
    leave(legacyTmp, leftover, '{"type":');
    // Sent since the upgrade: after what the older version left.
    await transport.deliver('bob', logged);

    const peeked = await transport.peek('bob');
    assert.deepEqual(ids(peeked.messages), ids([before, after, logged]));
    assert.equal(peeked.problems.length, 5, 'peek reports the problems and throws nothing');

    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), ids([before, after, logged]));
      const reasons = new Map(seen.setAside().map((p) => [p.ref.split('/').at(-1), p.reason]));
      assert.match(reasons.get(bad.corrupt) ?? '', /not valid JSON/);
      assert.match(reasons.get(bad.invalid) ?? '', /not a valid message: .*from/);
      assert.match(reasons.get(bad.torn) ?? '', /not valid JSON/);
      assert.match(reasons.get(bad.misnamed) ?? '', /file name says id/);
      assert.match(reasons.get(bad.stray) ?? '', /not a message file name/);
      assert.match(reasons.get(leftover) ?? '', /a temporary an older version left in tmp\/.*never delivered/);
      assert.deepEqual(entriesIn(box().bad).sort(), [...Object.values(bad), leftover].sort(), 'kept in bad/ as evidence');
      assert.equal(readFileSync(join(box().bad, bad.torn), 'utf8'), torn.slice(0, torn.length / 2));
      assert.equal(existsSync(legacyNew), false, 'new/ is removed once empty');
      assert.equal(existsSync(legacyTmp), false, 'tmp/ too');
      assert.deepEqual(ids(await historyOf(transport, 'bob')), ids([before, after, logged]));
      assert.deepEqual(await transport.peek('bob'), { messages: [], problems: [] });
    });
  });

  test('an entry of new/ whose id is already journaled is removed without being delivered again', async () => {
    const { transport, box } = freshTeam();
    const [handled, fresh] = messages(2);
    assert.ok(handled && fresh);
    // An older consumer killed between its journal write and its unlink left exactly this behind.
    mkdirSync(box().dir, { recursive: true });
    appendLines(box().journal, [handled]);
    for (const message of [handled, fresh]) leave(box().legacyNew, `${message.id}.json`, JSON.stringify(message));
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), ids([fresh]));
      assert.equal(existsSync(box().legacyNew), false);
      assert.deepEqual(ids(await historyOf(transport, 'bob')), ids([handled, fresh]));
    });
  });
});
