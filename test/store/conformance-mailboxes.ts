import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MailboxEvent, SetAside } from '../../src/store/transport.js';
import type { Envelope } from '../../src/protocol/messages.js';
import { waitFor } from '../helpers/wait.js';
import { textMessage } from '../fixtures/mailbox-envelopes.js';
import type { Kit } from './conformance.js';

const texts = (messages: readonly Envelope[]) => messages.map((m) => (m.type === 'message' ? m.text : m.type));

/** A subscription listener that keeps what it is given. */
function recorder() {
  const delivered: Envelope[] = [];
  const setAside: SetAside[] = [];
  return {
    delivered,
    setAside,
    listener: (event: MailboxEvent) => {
      if (event.type === 'delivered') delivered.push(...event.messages);
      else setAside.push(event.problem);
    },
  };
}

export function mailboxCases(kit: Kit): void {
  test('mailboxes: peek and the consumer see each sender\'s messages in the order sent; peeking consumes nothing', async () => {
    const { store } = await kit.team();
    const sent: string[] = [];
    for (let i = 0; i < 5; i++) {
      for (const from of ['alice', 'carol']) {
        await store.mailboxes.deliver('bob', textMessage(from, 'bob', `${from} ${i}`));
        sent.push(`${from} ${i}`);
      }
    }
    const bySender = (all: readonly string[], from: string) => all.filter((text) => text.startsWith(`${from} `));
    const peeked = await store.mailboxes.peek('bob');
    assert.deepEqual(peeked.problems, []);
    assert.deepEqual([...texts(peeked.messages)].sort(), [...sent].sort(), 'peek shows every waiting message');
    for (const from of ['alice', 'carol']) assert.deepEqual(bySender(texts(peeked.messages), from), bySender(sent, from), `peek: ${from}'s in send order`);
    assert.equal((await store.mailboxes.peek('bob')).messages.length, 10, 'peeking took nothing');
    assert.deepEqual(await store.mailboxes.peek('nobody'), { messages: [], problems: [] });
    const seen = recorder();
    kit.keep(await store.mailboxes.subscribe('bob', seen.listener));
    await waitFor(() => seen.delivered.length >= 10, 'the consumer to take all ten');
    for (const from of ['alice', 'carol']) assert.deepEqual(bySender(texts(seen.delivered), from), bySender(sent, from), `consumer: ${from}'s in send order`);
    await waitFor(async () => (await store.mailboxes.peek('bob')).messages.length === 0, 'the mailbox to be empty once consumed');
  });

  test("mailboxes: observe from 'history' gives what was handled then what waits; from 'unread' only what waits; both follow what comes", async () => {
    const { store } = await kit.team();
    for (const text of ['a1', 'a2', 'a3']) await store.mailboxes.deliver('bob', textMessage('alice', 'bob', text));
    const consumer = recorder();
    const subscription = await store.mailboxes.subscribe('bob', consumer.listener);
    await waitFor(() => consumer.delivered.length === 3, 'the first three to be handled');
    await subscription.close();
    for (const text of ['b1', 'b2']) await store.mailboxes.deliver('bob', textMessage('alice', 'bob', text));
    const history: Envelope[] = [];
    const unread: Envelope[] = [];
    kit.keep(await store.mailboxes.observe('bob', (messages) => history.push(...messages), { from: 'history' }));
    kit.keep(await store.mailboxes.observe('bob', (messages) => unread.push(...messages), { from: 'unread' }));
    assert.deepEqual(texts(history), ['a1', 'a2', 'a3', 'b1', 'b2'], 'the history, handled first, before observe resolved');
    assert.deepEqual(texts(unread), ['b1', 'b2'], 'what waits, before observe resolved');
    // A consumer takes what arrives now: the observers still see each message once.
    const later = recorder();
    kit.keep(await store.mailboxes.subscribe('bob', later.listener));
    for (const text of ['c1', 'c2', 'c3']) await store.mailboxes.deliver('bob', textMessage('alice', 'bob', text));
    await waitFor(() => later.delivered.length === 5 && history.length === 8 && unread.length === 5, 'the observers to follow');
    assert.deepEqual(texts(history), ['a1', 'a2', 'a3', 'b1', 'b2', 'c1', 'c2', 'c3']);
    assert.deepEqual(texts(unread), ['b1', 'b2', 'c1', 'c2', 'c3']);
    assert.deepEqual(texts(later.delivered), ['b1', 'b2', 'c1', 'c2', 'c3']);
    const closed: Envelope[] = [];
    await (await store.mailboxes.observe('nobody', (messages) => closed.push(...messages), { from: 'history' })).close();
    assert.deepEqual(closed, [], 'a mailbox never written to has no history');
  });

  test('mailboxes: an entry the backend cannot read, or that admit refuses, is set aside with a reason and a ref; the rest is delivered', async () => {
    const { descriptor, store } = await kit.team();
    await store.mailboxes.deliver('bob', textMessage('alice', 'bob', 'first'));
    await kit.factory.injectUnreadable(descriptor, 'bob');
    await store.mailboxes.deliver('bob', textMessage('alice', 'bob', 'forged'));
    await store.mailboxes.deliver('bob', textMessage('alice', 'bob', 'last'));
    const peeked = await store.mailboxes.peek('bob');
    assert.deepEqual(texts(peeked.messages), ['first', 'forged', 'last'], 'peek admits nothing: it only looks');
    assert.equal(peeked.problems.length, 1, 'the unreadable entry is reported by peek');
    const seen = recorder();
    kit.keep(await store.mailboxes.subscribe('bob', seen.listener, {
      admit: (envelope) => (envelope.type === 'message' && envelope.text === 'forged' ? { ok: false, reason: 'not signed by alice' } : { ok: true }),
    }));
    await waitFor(() => seen.delivered.length === 2 && seen.setAside.length === 2, 'two delivered and two set aside');
    assert.deepEqual(texts(seen.delivered), ['first', 'last']);
    for (const problem of seen.setAside) {
      assert.ok(problem.ref.length > 0, 'a ref says where the evidence is');
      assert.ok(problem.reason.length > 0, 'a reason says why');
    }
    assert.equal(seen.setAside.filter((p) => p.reason === 'refused: not signed by alice').length, 1, "admit's refusal, with its reason");
    const history: Envelope[] = [];
    await (await store.mailboxes.observe('bob', (messages) => history.push(...messages), { from: 'history' })).close();
    assert.deepEqual(texts(history), ['first', 'last'], 'what was set aside never counts as handled');
    assert.deepEqual(await store.mailboxes.peek('bob'), { messages: [], problems: [] }, 'nothing is left waiting');
  });
}
