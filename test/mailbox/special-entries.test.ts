import { historyOf } from '../helpers/history.js';
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as z from 'zod';
import { LogTransport } from '../../src/store/file/mailbox/log-transport.js';
import { NOT_A_LOG } from '../../src/store/file/mailbox/log-names.js';
import { newMessageId } from '../../src/protocol/ids.js';
import { teamPaths } from '../../src/team/paths.js';
import { DIST, killAll, spawnNode, type Child } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { textMessage } from '../fixtures/mailbox-envelopes.js';
import { entriesIn, journaled, layoutOf } from '../fixtures/mailbox-journal.js';
import { ENDED_WRITER, line, logPath } from '../fixtures/mailbox-logs.js';
import { ids, messages, recorder, teamMaker, withSubscription } from '../fixtures/mailbox-team.js';

after(killAll);

const { home: sharedHome, cleanup } = tempHome();
after(cleanup);
const freshTeam = teamMaker(sharedHome);

const READER = join(DIST, 'test/fixtures/mailbox-reader.js');
const PEEKER = join(DIST, 'test/fixtures/mailbox-peeker.js');
const PeekReport = z.object({ messages: z.array(z.string()), problems: z.array(z.object({ ref: z.string(), reason: z.string() })) });

/** The child's exit, or a clear failure if it is still running (blocked) at the deadline. */
async function exitOf(child: Child, what: string) {
  let exit: Awaited<Child['exited']> | undefined;
  void child.exited.then((result) => (exit = result));
  return waitFor(() => exit, what);
}

describe('entries of a mailbox that are not regular files, or not logs', () => {
  for (const where of ['logs', 'legacyNew'] as const) {
    test(`a FIFO in ${where === 'logs' ? 'logs/, named like a log' : "an older version's new/, named like a message"}, blocks neither peek nor the consumer: it is set aside as a fifo`, async () => {
      // In child processes: on a blocking read, only they hang, and the deadline reports it.
      const { home, cleanup: done } = tempHome();
      after(done);
      const box = layoutOf(home, 'bob');
      mkdirSync(box[where], { recursive: true });
      const fifo = where === 'logs' ? basename(logPath(box, ENDED_WRITER)) : `${newMessageId()}.json`;
      execFileSync('mkfifo', [join(box[where], fifo)]);
      const message = textMessage('alice', 'bob', 'after the fifo');
      await new LogTransport(teamPaths(home, 'default').root).deliver('bob', message);

      const peeker = spawnNode(PEEKER, ['--home', home, '--agent', 'bob']);
      assert.deepEqual(await exitOf(peeker, 'peek to return'), { code: 0, signal: null });
      const peeked = PeekReport.parse(JSON.parse(peeker.stdout()));
      assert.deepEqual(peeked.messages, [message.id]);
      assert.deepEqual(peeked.problems, [{ ref: join(box[where], fifo), reason: 'not a regular file: fifo' }]);

      const reader = spawnNode(READER, ['--home', home, '--agent', 'bob']);
      await waitFor(() => reader.stdout().includes('ready'), 'the reader to drain past the fifo');
      assert.equal(reader.stdout(), `set_aside ${join(box.bad, fifo)}: not a regular file: fifo\ndelivered 1\nready\n`);
      assert.ok(lstatSync(join(box.bad, fifo)).isFIFO(), 'the fifo itself is kept as evidence');
      assert.deepEqual(ids(journaled(home, 'bob')), [message.id]);
    });
  }

  test('symlinks named like logs, dangling or not, are never followed: peek reports them and the consumer sets them aside once', async () => {
    const { transport, box } = freshTeam();
    mkdirSync(box().logs, { recursive: true });
    // Pointing a log at a file elsewhere, to have it read as if sent.
    const [elsewhere, real] = messages(2);
    assert.ok(elsewhere && real);
    const target = join(box().dir, 'elsewhere.log');
    writeFileSync(target, line(elsewhere));
    const links = { pointing: basename(logPath(box(), ENDED_WRITER, 0)), dangling: basename(logPath(box(), ENDED_WRITER, 1)) };
    symlinkSync(target, join(box().logs, links.pointing));
    symlinkSync(join(box().dir, 'nothing-here.log'), join(box().logs, links.dangling));
    await transport.deliver('bob', real);

    const peeked = await transport.peek('bob');
    assert.deepEqual(ids(peeked.messages), ids([real]), 'peek does not read through the link');
    const reason = 'not a regular file: symlink';
    assert.deepEqual(
      peeked.problems.sort((a, b) => a.ref.localeCompare(b.ref)),
      Object.values(links).sort().map((name) => ({ ref: join(box().logs, name), reason })),
    );

    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), ids([real]));
      assert.deepEqual(
        seen.setAside().sort((a, b) => a.ref.localeCompare(b.ref)),
        Object.values(links).sort().map((name) => ({ ref: join(box().bad, name), reason })),
      );
      assert.equal(readlinkSync(join(box().bad, links.pointing)), target, 'the link itself is kept as evidence');
      assert.equal(readFileSync(target, 'utf8'), line(elsewhere), 'its target is untouched');
      assert.deepEqual(ids(await historyOf(transport, 'bob')), ids([real]));
    });
  });

  test('a directory named like a log, and a file that is not named like one, are set aside under their own names', async () => {
    const { transport, box } = freshTeam();
    const dir = basename(logPath(box(), ENDED_WRITER));
    mkdirSync(join(box().logs, dir), { recursive: true });
    writeFileSync(join(box().logs, 'notes.txt'), 'hello');
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(seen.setAside().sort((a, b) => a.ref.localeCompare(b.ref)), [
        { ref: join(box().bad, dir), reason: 'not a regular file: directory' },
        { ref: join(box().bad, 'notes.txt'), reason: NOT_A_LOG },
      ]);
      assert.deepEqual(entriesIn(box().logs), []);
    });
  });
});
