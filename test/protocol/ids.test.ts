import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MESSAGE_ID_PATTERN, REQUEST_ID_PATTERN, newMessageId, newRequestId } from '../../src/protocol/ids.js';
import { MessageId, RequestId } from '../../src/protocol/messages.js';

describe('newMessageId', () => {
  test('is 20 lowercase Crockford base32 chars and passes the schema', () => {
    const id = newMessageId();
    assert.match(id, MESSAGE_ID_PATTERN);
    assert.ok(MessageId.safeParse(id).success);
  });

  test('is unique and strictly increasing across many calls', () => {
    const ids = Array.from({ length: 20_000 }, () => newMessageId());
    assert.equal(new Set(ids).size, ids.length);
    for (let i = 1; i < ids.length; i++) assert.ok((ids[i - 1] as string) < (ids[i] as string), `${ids[i - 1]} !< ${ids[i]}`);
  });

  test('sorts in send order within one millisecond', () => {
    const now = Date.now() + 60_000;
    const ids = Array.from({ length: 100 }, () => newMessageId(now));
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(new Set(ids).size, 100);
  });

  test('sorts by time: a later millisecond sorts after', () => {
    const base = Date.now() + 120_000;
    const first = newMessageId(base);
    const second = newMessageId(base + 1);
    const third = newMessageId(base + 1000 * 60 * 60 * 24 * 365);
    assert.ok(first < second && second < third);
  });

  test('stays increasing when the clock steps backwards', () => {
    const ahead = newMessageId(Date.now() + 180_000);
    const behind = newMessageId(Date.now());
    assert.ok(ahead < behind, `${ahead} !< ${behind}`);
  });

  test('encodes the time in its first 10 chars', () => {
    const now = Date.now() + 240_000;
    const a = newMessageId(now);
    const b = newMessageId(now);
    assert.equal(a.slice(0, 10), b.slice(0, 10));
    assert.equal(a.slice(14), b.slice(14), 'the process tag is fixed');
    assert.notEqual(a.slice(10, 14), b.slice(10, 14), 'the sequence advances');
  });
});

describe('newRequestId', () => {
  test('is the kind, a dash, 10 base32 chars', () => {
    const id = newRequestId('shutdown');
    assert.match(id, /^shutdown-[0-9a-hjkmnp-tv-z]{10}$/);
    assert.match(id, REQUEST_ID_PATTERN);
    assert.ok(RequestId.safeParse(id).success);
  });

  test('is unique across many calls', () => {
    const ids = Array.from({ length: 10_000 }, () => newRequestId('plan'));
    assert.equal(new Set(ids).size, ids.length);
  });
});
