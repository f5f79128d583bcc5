import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Envelope } from '../../src/protocol/messages.js';
import type { TeamStore } from '../../src/store/team-store.js';
import type { Child } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { parseStamp } from '../fixtures/mailbox-envelopes.js';
import { linesOf, succeeded, type Kit } from './conformance.js';

/** Every message the mailbox keeps, handled or waiting, observed once from its history. */
async function historyOf(store: TeamStore, agent: string): Promise<Envelope[]> {
  const seen: Envelope[] = [];
  await (await store.mailboxes.observe(agent, (messages) => seen.push(...messages), { from: 'history' })).close();
  return seen;
}

/** Each writer's stamped messages appear exactly once and in the order sent: seq 0, 1, … count - 1. */
function assertExactlyOnceInOrder(messages: readonly Envelope[], writers: readonly string[], count: number): void {
  assert.equal(new Set(messages.map((m) => m.id)).size, messages.length, 'no id twice');
  for (const writer of writers) {
    const seqs = messages.flatMap((m) => (m.type === 'message' && m.from === writer ? [parseStamp(m.text).seq] : []));
    const firstWrong = seqs.findIndex((seq, index) => seq !== index);
    assert.equal(firstWrong, -1, `${writer}: position ${firstWrong} holds seq ${seqs[firstWrong]}`);
    assert.equal(seqs.length, count, `${writer}: ${seqs.length} of ${count}`);
  }
  assert.equal(messages.length, writers.length * count, 'nothing from anyone else');
}

const deliveredBy = (child: Child) => linesOf(child).flatMap((line) => (line.startsWith('delivered ') ? [line.slice('delivered '.length)] : []));

export function mailboxRaceCases(kit: Kit): void {
  test('mailboxes: writer processes delivering into one mailbox at once: each message exactly once, in each writer\'s order', async () => {
    const { descriptor, store } = await kit.team();
    const writers = ['w0', 'w1', 'w2', 'w3'];
    const count = 200;
    const delivered: Envelope[] = [];
    kit.keep(await store.mailboxes.subscribe('bob', (event) => {
      if (event.type === 'delivered') delivered.push(...event.messages);
    }));
    const children = writers.map((from) => kit.child(descriptor, 'write', from, 'bob', String(count)));
    await kit.go(children);
    for (const child of children) await succeeded(child, 'a writer');
    await waitFor(() => delivered.length >= writers.length * count, `all ${writers.length * count} to be delivered (have ${delivered.length})`, 60_000);
    assertExactlyOnceInOrder(delivered, writers, count);
    assertExactlyOnceInOrder(await historyOf(store, 'bob'), writers, count);
  });

  test('mailboxes: a consumer SIGKILLed mid-stream, again and again: nothing lost, nothing handled twice', async () => {
    const { descriptor, store } = await kit.team();
    const kills = 4;
    const writer = kit.child(descriptor, 'stream', 'alice', 'bob');
    await kit.go([writer]);
    const consumers: Child[] = [];
    // The stream runs until every kill is done, so each consumer dies with more still coming.
    for (let round = 0; round < kills; round++) {
      const consumer = kit.child(descriptor, 'consume', 'bob');
      consumers.push(consumer);
      await waitFor(() => deliveredBy(consumer).length > 0 || consumer.process.exitCode !== null, `consumer ${round} to handle a message`, 30_000);
      assert.equal(consumer.process.exitCode, null, `consumer ${round} died by itself: ${consumer.stderr()}`);
      consumer.process.kill('SIGKILL');
      await consumer.exited;
    }
    writer.process.stdin?.write('stop\n');
    await succeeded(writer, 'the writer');
    const count = Number(linesOf(writer).at(-1)?.replace('done ', ''));
    assert.ok(count > 0, `the writer says how many it wrote: ${linesOf(writer).join(' | ')}`);
    // The last consumer, in this process, takes whatever is left.
    const last: string[] = [];
    kit.keep(await store.mailboxes.subscribe('bob', (event) => {
      if (event.type === 'delivered') last.push(...event.messages.map((m) => m.id));
    }));
    const history = await waitFor(async () => {
      const kept = await historyOf(store, 'bob');
      return kept.length >= count && (await store.mailboxes.peek('bob')).messages.length === 0 ? kept : undefined;
    }, `all ${count} to be handled`, 60_000);
    assertExactlyOnceInOrder(history, ['alice'], count);
    // A message is handed to a listener only after it is recorded as handled, so a kill may
    // come between the two: it is in the history, yet no listener saw it. None is seen twice.
    const handedOut = [...consumers.flatMap(deliveredBy), ...last];
    const twice = handedOut.filter((id, index) => handedOut.indexOf(id) !== index);
    assert.deepEqual(twice, [], 'no message handed to a listener twice');
    const known = new Set(history.map((m) => m.id));
    assert.deepEqual(handedOut.filter((id) => !known.has(id)), [], 'every message handed out is in the history');
  });
}
