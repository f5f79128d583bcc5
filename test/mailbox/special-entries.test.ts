import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { MaildirTransport } from '../../src/mailbox/maildir.js';
import { newMessageId } from '../../src/protocol/ids.js';
import { teamPaths } from '../../src/team/paths.js';
import { DIST, killAll, spawnNode, type Child } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { textMessage } from '../fixtures/mailbox-envelopes.js';
import { entriesIn, journaled, layoutOf } from '../fixtures/mailbox-journal.js';
import { ids, messages, recorder, teamMaker, withSubscription } from '../fixtures/mailbox-team.js';

after(killAll);

const { home: sharedHome, cleanup } = tempHome();
after(cleanup);
const freshTeam = teamMaker(sharedHome);

const READER = join(DIST, 'test/fixtures/mailbox-reader.js');
const PEEKER = join(DIST, 'test/fixtures/mailbox-peeker.js');
const PeekReport = z.object({ messages: z.array(z.string()), problems: z.array(z.object({ entry: z.string(), reason: z.string() })) });

/** The child's exit, or a clear failure if it is still running (blocked) at the deadline. */
async function exitOf(child: Child, what: string) {
  let exit: Awaited<Child['exited']> | undefined;
  void child.exited.then((result) => (exit = result));
  return waitFor(() => exit, what);
}

describe('entries of new/ that are not regular files', () => {
  test('a FIFO named like a message blocks neither peek nor the consumer: it is set aside as a fifo', async () => {
    // In child processes: on a blocking read, only they hang, and the deadline reports it.
    const { home, cleanup: done } = tempHome();
    after(done);
    const box = layoutOf(home, 'bob');
    mkdirSync(box.new, { recursive: true });
    const fifo = `${newMessageId()}.json`;
    execFileSync('mkfifo', [join(box.new, fifo)]);
    const message = textMessage('alice', 'bob', 'after the fifo');
    await new MaildirTransport(teamPaths(home, 'default').root).deliver('bob', message);

    const peeker = spawnNode(PEEKER, ['--home', home, '--agent', 'bob']);
    assert.deepEqual(await exitOf(peeker, 'peek to return'), { code: 0, signal: null });
    const peeked = PeekReport.parse(JSON.parse(peeker.stdout()));
    assert.deepEqual(peeked.messages, [message.id]);
    assert.deepEqual(peeked.problems, [{ entry: join(box.new, fifo), reason: 'not a regular file: fifo' }]);

    const reader = spawnNode(READER, ['--home', home, '--agent', 'bob']);
    await waitFor(() => reader.stdout().includes('ready'), 'the reader to drain past the fifo');
    assert.equal(reader.stdout(), `set_aside ${join(box.bad, fifo)}: not a regular file: fifo\ndelivered 1\nready\n`);
    assert.ok(lstatSync(join(box.bad, fifo)).isFIFO(), 'the fifo itself is kept as evidence');
    assert.deepEqual(entriesIn(box.new), []);
    assert.deepEqual(ids(journaled(home, 'bob')), [message.id]);
  });

  test('symlinks, dangling or not, are never followed: peek reports them and the consumer sets them aside once', async () => {
    const { transport, box } = freshTeam();
    mkdirSync(box().new, { recursive: true });
    // A teammate pointing an entry at a real message elsewhere, to have it read as if sent.
    const [elsewhere, real] = messages(2);
    assert.ok(elsewhere && real);
    const target = join(box().dir, 'elsewhere.json');
    writeFileSync(target, JSON.stringify(elsewhere));
    const links = { pointing: `${elsewhere.id}.json`, dangling: `${newMessageId()}.json` };
    symlinkSync(target, join(box().new, links.pointing));
    symlinkSync(join(box().dir, 'nothing-here.json'), join(box().new, links.dangling));
    await transport.deliver('bob', real);

    const peeked = await transport.peek('bob');
    assert.deepEqual(ids(peeked.messages), ids([real]), 'peek does not read through the link');
    assert.deepEqual(
      peeked.problems.sort((a, b) => a.entry.localeCompare(b.entry)),
      Object.values(links).sort().map((name) => ({ entry: join(box().new, name), reason: 'not a regular file: symlink' })),
    );

    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(ids(seen.delivered()), ids([real]));
      assert.deepEqual(
        seen.setAside().sort((a, b) => a.entry.localeCompare(b.entry)),
        Object.values(links).sort().map((name) => ({ entry: join(box().bad, name), reason: 'not a regular file: symlink' })),
      );
      assert.equal(readlinkSync(join(box().bad, links.pointing)), target, 'the link itself is kept as evidence');
      assert.equal(readFileSync(target, 'utf8'), JSON.stringify(elsewhere), 'its target is untouched');
      assert.deepEqual(entriesIn(box().new), []);
      assert.deepEqual(ids(await transport.history('bob')), ids([real]));
    });
  });

  test('a directory named like a message is set aside as a directory', async () => {
    const { transport, box } = freshTeam();
    const dir = `${newMessageId()}.json`;
    mkdirSync(join(box().new, dir), { recursive: true });
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener), async () => {
      assert.deepEqual(seen.setAside(), [{ entry: join(box().bad, dir), reason: 'not a regular file: directory' }]);
      assert.deepEqual(entriesIn(box().new), []);
    });
  });
});
