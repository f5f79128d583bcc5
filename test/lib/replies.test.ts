import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Replies } from '../../src/lib/replies.js';

const ends = { onAbort: () => 'aborted', onTimeout: () => 'timed out' };

// A wait that never ends fails its test at this deadline instead of hanging the run.
describe('Replies: one wait per correlation id, ended once', { timeout: 5_000 }, () => {
  test('a reply that comes while the request is still being sent is not lost', async () => {
    const replies = new Replies<string>();
    const reply = await replies.request('r1', () => void replies.settle('r1', 'yes'), ends);
    assert.equal(reply, 'yes');
    assert.deepEqual(replies.waitingIds(), []);
  });

  test('the reply goes to its own id; another id or a second reply is ignored', async () => {
    const replies = new Replies<string>();
    const first = replies.request('r1', () => undefined, ends);
    const second = replies.request('r2', () => undefined, ends);
    assert.equal(replies.settle('r3', 'stray'), false);
    assert.equal(replies.settle('r2', 'two'), true);
    assert.equal(replies.settle('r2', 'again'), false);
    assert.deepEqual(replies.waitingIds(), ['r1']);
    assert.equal(replies.settle('r1', 'one'), true);
    assert.deepEqual(await Promise.all([first, second]), ['one', 'two']);
  });

  test('an abort ends the wait at once, and the late reply finds nobody', async () => {
    const replies = new Replies<string>();
    const controller = new AbortController();
    const reply = replies.request('r1', () => undefined, { ...ends, signal: controller.signal });
    controller.abort();
    assert.equal(await reply, 'aborted');
    assert.equal(replies.settle('r1', 'late'), false);
  });

  test('a signal aborted before the request ends it without waiting', async () => {
    const replies = new Replies<string>();
    assert.equal(await replies.request('r1', () => undefined, { ...ends, signal: AbortSignal.abort() }), 'aborted');
  });

  test('the deadline ends the wait with its own answer', async () => {
    const replies = new Replies<string>();
    assert.equal(await replies.request('r1', () => undefined, { ...ends, deadlineAt: Date.now() + 20 }), 'timed out');
    assert.deepEqual(replies.waitingIds(), []);
  });

  test('a reply before the deadline wins', async () => {
    const replies = new Replies<string>();
    const reply = replies.request('r1', () => undefined, { ...ends, deadlineAt: Date.now() + 60_000 });
    assert.equal(replies.settle('r1', 'in time'), true);
    assert.equal(await reply, 'in time');
  });

  test('a request that could not be sent is not waited for, and its error comes back', async () => {
    const replies = new Replies<string>();
    await assert.rejects(replies.request('r1', () => Promise.reject(new Error('refused')), ends), /refused/);
    assert.deepEqual(replies.waitingIds(), []);
  });

  test('one id is waited for once', async () => {
    const replies = new Replies<string>();
    const reply = replies.request('r1', () => undefined, ends);
    await assert.rejects(replies.request('r1', () => undefined, ends), /already waiting/);
    replies.settle('r1', 'ok');
    assert.equal(await reply, 'ok');
  });
});
