import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DeliveredJournal, JournalFollower } from '../../src/store/file/mailbox/journal.js';
import type { Envelope } from '../../src/protocol/messages.js';
import { tempHome } from '../helpers/temp.js';
import { textMessage } from '../fixtures/mailbox-envelopes.js';

const ids = (messages: readonly Envelope[]) => messages.map((m) => m.id);
const lines = (messages: readonly Envelope[]) => messages.map((m) => Buffer.from(JSON.stringify(m)));

test('a journal follower reads across a rotation: the rest of the old file, then the new one, nothing twice', () => {
  const { home, cleanup } = tempHome('teams-journal-');
  try {
    const path = join(home, 'delivered.jsonl');
    const sent = Array.from({ length: 6 }, (_, i) => textMessage('alice', 'bob', `message ${i}`));
    const lineBytes = Buffer.byteLength(`${JSON.stringify(sent[0])}\n`);
    // Two appends fill the file; the third rotates it first.
    const journal = new DeliveredJournal(path, { maxBytes: 2 * lineBytes, archives: 3, durable: false });
    journal.open(10);
    journal.append(lines(sent.slice(0, 1)));
    const follower = new JournalFollower(path);
    assert.deepEqual(follower.next(), [], 'what was journaled before it started is history, not news');
    journal.append(lines(sent.slice(1, 2)));
    assert.deepEqual(ids(follower.next()), ids(sent.slice(1, 2)));
    journal.append(lines(sent.slice(2, 3)));
    // Rotated before this append; the new file is already longer than the old offset.
    journal.append(lines(sent.slice(3, 6)));
    assert.deepEqual(ids(follower.next()), ids(sent.slice(2, 6)));
    assert.deepEqual(follower.next(), []);
  } finally {
    cleanup();
  }
});
