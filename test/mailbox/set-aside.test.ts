import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { newMessageId } from '../../src/protocol/ids.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { entriesIn } from '../fixtures/mailbox-journal.js';
import { appendToLog, ENDED_WRITER, logPath, runningWriter } from '../fixtures/mailbox-logs.js';
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
  test("an older version's entry whose name is taken in bad/ is set aside under a free name; the earlier evidence is kept", async () => {
    const { transport, box, errors } = teamCollectingErrors();
    mkdirSync(box().legacyNew, { recursive: true });
    mkdirSync(box().bad, { recursive: true });
    // The three ways the name can be taken: a directory with entries (ENOTEMPTY for a
    // directory, EISDIR for a file), an empty directory (EISDIR), and an earlier file of that
    // name, which a plain rename would silently replace.
    const taken = { fullDir: `${newMessageId()}.json`, emptyDir: `${newMessageId()}.json`, file: `${newMessageId()}.json` };
    mkdirSync(join(box().bad, taken.fullDir, 'inside'), { recursive: true });
    mkdirSync(join(box().bad, taken.emptyDir));
    writeFileSync(join(box().bad, taken.file), 'earlier evidence');
    for (const name of Object.values(taken)) writeFileSync(join(box().legacyNew, name), TORN);
    const [message] = messages(1);
    assert.ok(message);
    await transport.deliver('bob', message);

    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(errors, [], 'no consumer error');
      assert.deepEqual(ids(seen.delivered()), ids([message]), 'the drain went on past the entries');
      assert.equal(existsSync(box().legacyNew), false);
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

  test("a log's line set aside again (a consumer killed before its checkpoint) is kept once; another file of its name is not replaced", async () => {
    const { transport, box } = freshTeam();
    const again = logPath(box(), ENDED_WRITER, 0);
    const other = logPath(box(), ENDED_WRITER, 1);
    appendToLog(again, `${TORN}\n`);
    appendToLog(other, `${TORN}\n`);
    mkdirSync(box().bad, { recursive: true });
    writeFileSync(join(box().bad, `${basename(again)}.0`), `${TORN}`);
    writeFileSync(join(box().bad, `${basename(other)}.0`), 'earlier evidence');
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(seen.setAside().map((p) => basename(p.ref)), [`${basename(again)}.0`, `${basename(other)}.0.1`]);
      assert.equal(readFileSync(join(box().bad, `${basename(other)}.0`), 'utf8'), 'earlier evidence');
      assert.equal(entriesIn(box().bad).length, 3);
    });
  });

  test('bad/ removed while subscribed is made again for the next line set aside', async () => {
    const { transport, box, errors } = teamCollectingErrors();
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      rmSync(box().bad, { recursive: true });
      const log = logPath(box(), runningWriter());
      appendToLog(log, `${TORN}\n`);
      await waitFor(() => seen.setAside().length > 0, 'the torn line to be set aside');
      assert.deepEqual(seen.setAside().map((p) => p.ref), [join(box().bad, `${basename(log)}.0`)]);
      assert.equal(readFileSync(join(box().bad, `${basename(log)}.0`), 'utf8'), TORN);
      assert.deepEqual(errors, []);
    });
  });

  test('with no bad/ to keep it in, a line is reported where it is and skipped, an entry is left and reported once; later messages flow', async () => {
    const { transport, box, errors } = teamCollectingErrors();
    const seen = recorder();
    const [first, second] = messages(2);
    assert.ok(first && second);
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      // A file where bad/ should be: nothing can be made in it (ENOTDIR), nor can mkdir.
      rmSync(box().bad, { recursive: true });
      writeFileSync(box().bad, 'not a directory');
      const log = logPath(box(), runningWriter());
      appendToLog(log, `${TORN}\n`);
      const stray = 'notes.txt';
      writeFileSync(join(box().logs, stray), 'hello');
      await transport.deliver('bob', first);
      await waitFor(() => seen.delivered().length === 1, 'the message after the bad line');
      const reports = (end: string) => seen.setAside().filter((p) => p.ref.endsWith(end));
      assert.deepEqual(reports(`${log} at byte 0`).length, 1);
      assert.match(reports(`${log} at byte 0`)[0]?.reason ?? '', /not valid JSON.*could not be kept in bad\/.*ENOTDIR/);
      assert.deepEqual(reports(stray).map((p) => p.ref), [join(box().logs, stray)]);
      assert.match(reports(stray)[0]?.reason ?? '', /not a mailbox log.*could not be moved to bad\/.*ENOTDIR/);

      await transport.deliver('bob', second);
      await waitFor(() => seen.delivered().length === 2, 'a later drain');
      assert.equal(reports(stray).length, 1, 'not reported again on every drain');
      assert.equal(reports(`${log} at byte 0`).length, 1, 'the line is behind the checkpoint now');
      assert.ok(entriesIn(box().logs).includes(stray), 'nothing lost: the entry is left where it was');
      assert.deepEqual(errors, []);
    });
  });
});
