import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newMessageId } from '../../src/protocol/ids.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { entriesIn } from '../fixtures/mailbox-journal.js';
import { ids, messages, recorder, teamMaker, withSubscription } from '../fixtures/mailbox-team.js';

const { home, cleanup } = tempHome();
after(cleanup);
const freshTeam = teamMaker(home);

/** A team whose consumer errors are collected instead of crashing the test process. */
function teamCollectingErrors() {
  const errors: unknown[] = [];
  return { ...freshTeam({ onError: (error) => errors.push(error) }), errors };
}

const TORN = '{"type":"message","id":"';

describe('setting aside', () => {
  test('an entry whose name is already taken in bad/ is set aside under a free name; the earlier evidence is kept', async () => {
    const { transport, box, errors } = teamCollectingErrors();
    mkdirSync(box().new, { recursive: true });
    mkdirSync(box().bad, { recursive: true });
    // The three ways the name can be taken: a directory with entries (ENOTEMPTY for a
    // directory, EISDIR for a file), an empty directory (EISDIR), and an earlier file of that
    // name, which a plain rename would silently replace.
    const taken = { fullDir: `${newMessageId()}.json`, emptyDir: `${newMessageId()}.json`, file: `${newMessageId()}.json` };
    mkdirSync(join(box().bad, taken.fullDir, 'inside'), { recursive: true });
    mkdirSync(join(box().bad, taken.emptyDir));
    writeFileSync(join(box().bad, taken.file), 'earlier evidence');
    for (const name of Object.values(taken)) writeFileSync(join(box().new, name), TORN);
    const [message] = messages(1);
    assert.ok(message);
    await transport.deliver('bob', message);

    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(errors, [], 'no consumer error');
      assert.deepEqual(ids(seen.delivered()), ids([message]), 'the drain went on past the entries');
      assert.deepEqual(entriesIn(box().new), []);
      const problems = seen.setAside();
      assert.equal(problems.length, 3);
      for (const name of Object.values(taken)) {
        const problem = problems.find((p) => p.ref.startsWith(join(box().bad, name)));
        assert.ok(problem, `${name} is reported`);
        assert.notEqual(problem.ref, join(box().bad, name), 'under a name that was free');
        assert.match(problem.reason, /not valid JSON/);
        assert.equal(readFileSync(problem.ref, 'utf8'), TORN, 'the entry itself is kept as evidence');
      }
      assert.equal(readFileSync(join(box().bad, taken.file), 'utf8'), 'earlier evidence', 'the earlier evidence is not replaced');
      assert.deepEqual(entriesIn(join(box().bad, taken.fullDir)), ['inside']);
      assert.equal(entriesIn(box().bad).length, 6);
    });
  });

  test('bad/ removed while subscribed is made again for the next entry set aside', async () => {
    const { transport, box, errors } = teamCollectingErrors();
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      rmSync(box().bad, { recursive: true });
      const torn = `${newMessageId()}.json`;
      writeFileSync(join(box().new, torn), TORN);
      await waitFor(() => seen.setAside().length > 0, 'the torn entry to be set aside');
      assert.deepEqual(seen.setAside().map((p) => p.ref), [join(box().bad, torn)]);
      assert.ok(existsSync(join(box().bad, torn)));
      assert.deepEqual(errors, []);
    });
  });

  test('an entry that cannot be moved at all stays in new/, is reported once, and later messages still flow', async () => {
    const { transport, box, errors } = teamCollectingErrors();
    const seen = recorder();
    const [first, second] = messages(2);
    assert.ok(first && second);
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      // A file where bad/ should be: no rename into it can succeed (ENOTDIR), nor can mkdir.
      rmSync(box().bad, { recursive: true });
      writeFileSync(box().bad, 'not a directory');
      const stuck = `${newMessageId()}.json`;
      writeFileSync(join(box().new, stuck), TORN);
      await transport.deliver('bob', first);
      await waitFor(() => seen.delivered().length === 1, 'the message after the stuck entry');
      const reports = () => seen.setAside().filter((p) => p.ref.endsWith(stuck));
      assert.equal(reports().length, 1);
      assert.equal(reports()[0]?.ref, join(box().new, stuck), 'reported where it still is');
      assert.match(reports()[0]?.reason ?? '', /not valid JSON.*could not be moved to bad\/.*ENOTDIR/);

      await transport.deliver('bob', second);
      await waitFor(() => seen.delivered().length === 2, 'a later drain');
      assert.equal(reports().length, 1, 'not reported again on every drain');
      assert.deepEqual(entriesIn(box().new), [stuck], 'nothing lost: it is left where it was');
      assert.deepEqual(errors, []);
    });
  });
});
