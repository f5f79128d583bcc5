import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import * as z from 'zod';
import { DIST, killAll, spawnNode, type Child } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { MaildirTransport } from '../../src/mailbox/maildir.js';
import { teamPaths } from '../../src/team/paths.js';
import { textMessage } from '../fixtures/mailbox-envelopes.js';
import { assertExactlyOnceInSendOrder, entriesIn, journaled, layoutOf } from '../fixtures/mailbox-journal.js';

after(killAll);

const WRITER = join(DIST, 'test/fixtures/mailbox-writer.js');
const READER = join(DIST, 'test/fixtures/mailbox-reader.js');
const WriterReport = z.object({ wrote: z.number().int() });

function startReader(home: string, env: NodeJS.ProcessEnv = process.env): Child {
  return spawnNode(READER, ['--home', home, '--agent', 'bob'], { env });
}

/** How many messages this reader's listener has been given so far. */
function deliveredBy(reader: Child): number {
  return [...reader.stdout().matchAll(/^delivered (\d+)$/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
}

async function sigkill(child: Child): Promise<void> {
  process.kill(child.pid, 'SIGKILL');
  assert.equal((await child.exited).signal, 'SIGKILL');
}

test('the reader SIGKILLed at random moments 20+ times while writers write: every message journaled exactly once, in order', async () => {
  const { home, cleanup } = tempHome();
  after(cleanup);
  const writerNames = ['w0', 'w1', 'w2'];
  // Unbounded writers (about 600 messages/s in all): they write until their stdin closes, so
  // every kill lands mid-stream.
  const writers = writerNames.map((name) =>
    spawnNode(WRITER, ['--home', home, '--to', 'bob', '--from', name, '--pace-ms', '5'], { stdio: ['pipe', 'pipe', 'pipe'] }),
  );
  const rounds = 22;
  for (let round = 0; round < rounds; round++) {
    const reader = startReader(home);
    // A random point in the reader's life: during startup (0), in the backlog it finds (which
    // grows while it is dead), or later in the live stream. Waiting on its own progress keeps
    // the moment random without sleeping.
    const killAfter = randomInt(0, 400);
    await waitFor(() => deliveredBy(reader) >= killAfter, `reader ${round} to handle ${killAfter} messages`, 20_000);
    await sigkill(reader);
  }
  for (const writer of writers) writer.process.stdin?.end();
  const sent = new Map<string, number>();
  for (const [index, writer] of writers.entries()) {
    assert.deepEqual(await writer.exited, { code: 0, signal: null });
    sent.set(writerNames[index] ?? '', WriterReport.parse(JSON.parse(writer.stdout().trim())).wrote);
  }
  const total = [...sent.values()].reduce((a, b) => a + b, 0);

  const last = startReader(home);
  await waitFor(() => last.stdout().includes('ready'), 'the last reader to drain what is left', 30_000);
  assertExactlyOnceInSendOrder(journaled(home, 'bob'), sent);
  assert.equal(journaled(home, 'bob').length, total);
  assert.deepEqual(entriesIn(layoutOf(home, 'bob').new), []);
  assert.deepEqual(entriesIn(layoutOf(home, 'bob').bad), [], 'a kill never leaves a torn entry behind');
  assert.doesNotMatch(last.stdout(), /set_aside/);
  await sigkill(last);
});

test('a reader killed between its journal write and its unlinks (failpoint) leaves duplicates that the next reader drops', async () => {
  const { home, cleanup } = tempHome();
  after(cleanup);
  const transport = new MaildirTransport(teamPaths(home, 'default').root);
  const sent = Array.from({ length: 50 }, (_, i) => textMessage('alice', 'bob', `alice ${i} 0`));
  for (const message of sent) await transport.deliver('bob', message);

  const crashing = startReader(home, { ...process.env, TEAMS_FAILPOINT: 'mailbox-after-journal' });
  assert.equal((await crashing.exited).signal, 'SIGKILL');
  assert.equal(journaled(home, 'bob').length, 50, 'the batch was journaled');
  assert.equal(entriesIn(layoutOf(home, 'bob').new).length, 50, 'and its files are all still in new/');
  assert.equal(deliveredBy(crashing), 0, 'its listener never saw them');

  const next = startReader(home);
  await waitFor(() => next.stdout().includes('ready'), 'the next reader');
  assert.deepEqual(entriesIn(layoutOf(home, 'bob').new), []);
  assert.equal(deliveredBy(next), 0, 'nothing is delivered twice');
  assertExactlyOnceInSendOrder(journaled(home, 'bob'), new Map([['alice', 50]]));

  const [more] = [textMessage('alice', 'bob', 'alice 50 0')];
  await transport.deliver('bob', more);
  await waitFor(() => deliveredBy(next) === 1, 'a new message to still flow');
  assertExactlyOnceInSendOrder(journaled(home, 'bob'), new Map([['alice', 51]]));
  await sigkill(next);
});
