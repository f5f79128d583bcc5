import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { DIST, killAll, spawnNode, type Child } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { readCheckpoint } from '../../src/store/file/mailbox/checkpoint.js';
import { LogTransport } from '../../src/store/file/mailbox/log-transport.js';
import { teamPaths } from '../../src/team/paths.js';
import { parseStamp, textMessage } from '../fixtures/mailbox-envelopes.js';
import { assertExactlyOnceInSendOrder, entriesIn, journaled, layoutOf, peekAt } from '../fixtures/mailbox-journal.js';
import { appendToLog, ENDED_WRITER, logPath } from '../fixtures/mailbox-logs.js';

after(killAll);

const WRITER = join(DIST, 'test/fixtures/mailbox-writer.js');
const READER = join(DIST, 'test/fixtures/mailbox-reader.js');
const WriterReport = z.object({ wrote: z.number().int() });

function startReader(home: string, env: NodeJS.ProcessEnv = process.env): Child {
  return spawnNode(READER, ['--home', home, '--agent', 'bob'], { env });
}

/** A writer of stamped messages from `from` to bob, until its stdin closes or it is killed. */
function startWriter(home: string, from: string, extra: string[] = []): Child {
  return spawnNode(WRITER, ['--home', home, '--to', 'bob', '--from', from, '--pace-ms', '5', '--progress', ...extra], { stdio: ['pipe', 'pipe', 'pipe'] });
}

/** How many messages this reader's listener has been given so far. */
function deliveredBy(reader: Child): number {
  return [...reader.stdout().matchAll(/^delivered (\d+)$/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
}

/** How many messages a writer has said were delivered (its last "sent <n>"). */
function sentBy(writer: Child): number {
  return Number([...writer.stdout().matchAll(/^sent (\d+)$/gm)].at(-1)?.[1] ?? 0);
}

async function sigkill(child: Child): Promise<void> {
  process.kill(child.pid, 'SIGKILL');
  assert.equal((await child.exited).signal, 'SIGKILL');
}

/** Each writer's journaled sequence numbers, in journal order. */
function seqsByWriter(home: string): Map<string, number[]> {
  const seqs = new Map<string, number[]>();
  for (const message of journaled(home, 'bob')) {
    if (message.type !== 'message') continue;
    const { from, seq } = parseStamp(message.text);
    seqs.set(from, [...(seqs.get(from) ?? []), seq]);
  }
  return seqs;
}

test('the reader SIGKILLed 30 times at random moments while writers write, are killed, and die mid-line: every message journaled exactly once, in order', async () => {
  const { home, cleanup } = tempHome();
  after(cleanup);
  // Writers that run to the end (about 600 messages/s in all): every reader kill lands mid-stream.
  const steady = ['w0', 'w1', 'w2'].map((name) => ({ name, child: startWriter(home, name) }));
  const killed: { name: string; child: Child }[] = [];
  const torn: { name: string; count: number; child: Child }[] = [];
  let victim = startWriter(home, 'v0');
  const rounds = 30;
  for (let round = 0; round < rounds; round++) {
    if (round % 3 === 1) {
      // A writer killed between two writes, and one that dies inside one (a torn line).
      await sigkill(victim);
      killed.push({ name: `v${killed.length}`, child: victim });
      victim = startWriter(home, `v${killed.length}`);
      const count = randomInt(1, 30);
      const name = `t${torn.length}`;
      torn.push({ name, count, child: startWriter(home, name, ['--count', '1000', '--tear-after', String(count)]) });
    }
    const reader = startReader(home);
    // A random point in the reader's life: during startup (0), in the backlog it finds (which
    // grows while it is dead), or later in the live stream. Waiting on its own progress keeps
    // the moment random without sleeping.
    const killAfter = randomInt(0, 400);
    await waitFor(() => deliveredBy(reader) >= killAfter, `reader ${round} to handle ${killAfter} messages`, 20_000);
    await sigkill(reader);
  }
  await sigkill(victim);
  killed.push({ name: `v${killed.length}`, child: victim });
  for (const { child } of steady) child.process.stdin?.end();
  const sent = new Map<string, number>();
  for (const { name, child } of steady) {
    assert.deepEqual(await child.exited, { code: 0, signal: null });
    sent.set(name, WriterReport.parse(JSON.parse(child.stdout().trim().split('\n').at(-1) ?? '')).wrote);
  }
  for (const { name, count, child } of torn) {
    assert.equal((await child.exited).signal, 'SIGKILL', `${name} killed itself mid-line`);
    sent.set(name, count);
  }

  const last = startReader(home);
  await waitFor(() => last.stdout().includes('ready'), 'the last reader to drain what is left', 30_000);
  const seqs = seqsByWriter(home);
  // A killed writer's messages are those it wrote before the kill: at least all it said were delivered.
  for (const { name, child } of killed) {
    const got = seqs.get(name) ?? [];
    assert.ok(got.length >= sentBy(child), `${name}: journaled ${got.length}, said ${sentBy(child)} were delivered`);
    if (got.length > 0) sent.set(name, got.length);
  }
  assertExactlyOnceInSendOrder(journaled(home, 'bob'), sent);
  const box = layoutOf(home, 'bob');
  assert.deepEqual(
    entriesIn(box.bad).map((name) => readFileSync(join(box.bad, name), 'utf8')).map((text) => text.length).sort(),
    torn.map(() => 60),
    'each torn line set aside once, whatever the kills in between, and nothing else',
  );
  assert.deepEqual(entriesIn(box.logs), [], 'every writer has ended: all their logs read and deleted');
  assert.deepEqual(await peekAt(home, 'bob'), { messages: [], problems: [] });
  await sigkill(last);
});

for (const failpoint of ['mailbox-after-journal', 'mailbox-after-checkpoint']) {
  test(`a reader killed at ${failpoint} leaves nothing to deliver twice, and a bad line kept once`, async () => {
    const { home, cleanup } = tempHome();
    after(cleanup);
    const transport = new LogTransport(teamPaths(home, 'default').root);
    const sent = Array.from({ length: 50 }, (_, i) => textMessage('alice', 'bob', `alice ${i} 0`));
    for (const message of sent) await transport.deliver('bob', message);
    appendToLog(logPath(layoutOf(home, 'bob'), ENDED_WRITER), '{"not": "a message"}\n');

    const crashing = startReader(home, { ...process.env, TEAMS_FAILPOINT: failpoint });
    assert.equal((await crashing.exited).signal, 'SIGKILL');
    assert.equal(journaled(home, 'bob').length, 50, 'the batch was journaled');
    const recorded = readCheckpoint(layoutOf(home, 'bob').checkpoint).size > 0;
    assert.equal(recorded, failpoint === 'mailbox-after-checkpoint', 'the logs are recorded as read only once the checkpoint is written');
    // Journaled is handled: a peek does not show them as waiting, though the logs still hold them.
    assert.deepEqual((await peekAt(home, 'bob')).messages, []);
    assert.equal(deliveredBy(crashing), 0, 'its listener never saw them');

    const next = startReader(home);
    await waitFor(() => next.stdout().includes('ready'), 'the next reader');
    assert.equal(deliveredBy(next), 0, 'nothing is delivered twice');
    assertExactlyOnceInSendOrder(journaled(home, 'bob'), new Map([['alice', 50]]));
    assert.equal(entriesIn(layoutOf(home, 'bob').bad).length, 1, 'the bad line is kept once');

    await transport.deliver('bob', textMessage('alice', 'bob', 'alice 50 0'));
    await waitFor(() => deliveredBy(next) === 1, 'a new message to still flow');
    assertExactlyOnceInSendOrder(journaled(home, 'bob'), new Map([['alice', 51]]));
    await sigkill(next);
  });
}
