import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Envelope } from '../../src/protocol/messages.js';
import type { TeamStore } from '../../src/store/team-store.js';
import { waitFor } from '../helpers/wait.js';
import { textMessage } from '../fixtures/mailbox-envelopes.js';
import { succeeded, type Kit } from './conformance.js';

const texts = (messages: readonly Envelope[]) => messages.map((m) => (m.type === 'message' ? m.text : m.type));

/** Every message the mailbox keeps, handled or waiting, observed once from its history. */
async function historyOf(store: TeamStore, agent: string): Promise<Envelope[]> {
  const seen: Envelope[] = [];
  await (await store.mailboxes.observe(agent, (messages) => seen.push(...messages), { from: 'history' })).close();
  return seen;
}

/** The deliver contract's promise: a retried deliver (the reply lost, say) is one message everywhere. */
export function deliverTwiceCases(kit: Kit): void {
  test('mailboxes: delivering an envelope again, before or after it is handled, delivers it once', async () => {
    const { store } = await kit.team();
    const [m1, m2, m3] = ['one', 'two', 'three'].map((text) => textMessage('alice', 'bob', text)) as [Envelope, Envelope, Envelope];
    await store.mailboxes.deliver('bob', m1);
    await store.mailboxes.deliver('bob', m1);
    await store.mailboxes.deliver('bob', m2);
    await store.mailboxes.deliver('bob', { ...m1 });
    assert.deepEqual(texts((await store.mailboxes.peek('bob')).messages), ['one', 'two'], 'peek shows each once');
    const unread: Envelope[] = [];
    kit.keep(await store.mailboxes.observe('bob', (messages) => unread.push(...messages), { from: 'unread' }));
    assert.deepEqual(texts(unread), ['one', 'two'], 'an observer sees each once');
    const delivered: Envelope[] = [];
    kit.keep(await store.mailboxes.subscribe('bob', (event) => event.type === 'delivered' && delivered.push(...event.messages)));
    await waitFor(() => delivered.length >= 2, 'the two messages');
    // A retry that comes after the message was handled: still once.
    await store.mailboxes.deliver('bob', m2);
    await store.mailboxes.deliver('bob', m3);
    await store.mailboxes.deliver('bob', m1);
    await waitFor(() => delivered.length >= 3 && unread.length >= 3, 'the third message');
    await waitFor(async () => (await store.mailboxes.peek('bob')).messages.length === 0, 'nothing left waiting');
    assert.deepEqual(texts(delivered), ['one', 'two', 'three'], 'the consumer sees each once');
    assert.deepEqual(texts(unread), ['one', 'two', 'three'], 'the observer still sees each once');
    assert.deepEqual(texts(await historyOf(store, 'bob')), ['one', 'two', 'three'], 'the history holds each once');
  });

  test('mailboxes: a message handled, then delivered again with no consumer running, is not shown as waiting', async () => {
    const { store } = await kit.team();
    const message = textMessage('alice', 'bob', 'once');
    await store.mailboxes.deliver('bob', message);
    const delivered: Envelope[] = [];
    const subscription = await store.mailboxes.subscribe('bob', (event) => event.type === 'delivered' && delivered.push(...event.messages));
    await waitFor(() => delivered.length === 1, 'the message to be handled');
    await subscription.close();
    await store.mailboxes.deliver('bob', message);
    assert.deepEqual((await store.mailboxes.peek('bob')).messages, [], 'peek: handled, not waiting');
    const unread: Envelope[] = [];
    await (await store.mailboxes.observe('bob', (messages) => unread.push(...messages), { from: 'unread' })).close();
    assert.deepEqual(unread, [], 'observe from unread: nothing waits');
    const again: Envelope[] = [];
    kit.keep(await store.mailboxes.subscribe('bob', (event) => event.type === 'delivered' && again.push(...event.messages)));
    await store.mailboxes.deliver('bob', textMessage('alice', 'bob', 'next'));
    await waitFor(() => again.length > 0, 'the next message');
    assert.deepEqual(texts(again), ['next'], 'a restarted consumer does not take it again');
  });

  test('mailboxes: two processes delivering the same envelopes at once: each delivered once, in order', async () => {
    const { descriptor, store } = await kit.team();
    const messages = Array.from({ length: 100 }, (_, i) => textMessage('alice', 'bob', `m${i}`));
    const delivered: Envelope[] = [];
    kit.keep(await store.mailboxes.subscribe('bob', (event) => event.type === 'delivered' && delivered.push(...event.messages)));
    const children = [0, 1].map(() => kit.child(descriptor, 'deliver', 'bob', JSON.stringify(messages)));
    await kit.go(children);
    for (const child of children) await succeeded(child, 'a deliverer');
    await waitFor(() => delivered.length >= messages.length, `all ${messages.length} (have ${delivered.length})`, 30_000);
    await waitFor(async () => (await store.mailboxes.peek('bob')).messages.length === 0, 'the duplicates to be dropped');
    assert.deepEqual(texts(delivered), texts(messages), 'each once, in the order sent');
    assert.deepEqual(texts(await historyOf(store, 'bob')), texts(messages));
  });
}
