import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redisTarget } from '../../src/store/redis/connection.js';
import { followStreams, streamTail, type FollowedEntries } from '../../src/store/redis/stream-follow.js';
import { RedisForFile } from '../helpers/redis-server.js';
import { waitFor } from '../helpers/wait.js';

const redis = new RedisForFile();

const add = (key: string, value: string) => redis.client.sendCommand(['XADD', key, '*', 'v', value]);
const values = (seen: FollowedEntries[], key: string) => seen.flat().filter((s) => s.key === key).flatMap((s) => s.entries.map((e) => e.fields?.get('v')));

test('a follow reads several streams from the ids given, each entry once and in order, until closed', async () => {
  await add('f1:a', 'a-old');
  const from = await streamTail(redis.client, 'f1:a');
  assert.equal(await streamTail(redis.client, 'f1:none'), '0-0', 'an absent stream has no tail');
  const seen: FollowedEntries[] = [];
  const problems: Error[] = [];
  const follow = await followStreams(redisTarget(redis.server.url), [{ key: 'f1:a', after: from }, { key: 'f1:b', after: '0-0' }], (entries) => {
    seen.push(entries);
  }, (error) => problems.push(error));
  for (let i = 0; i < 5; i++) {
    await add('f1:a', `a${i}`);
    await add('f1:b', `b${i}`);
  }
  await waitFor(() => values(seen, 'f1:a').length === 5 && values(seen, 'f1:b').length === 5, 'both streams followed');
  assert.deepEqual(values(seen, 'f1:a'), ['a0', 'a1', 'a2', 'a3', 'a4'], 'only what came after the id given');
  assert.deepEqual(values(seen, 'f1:b'), ['b0', 'b1', 'b2', 'b3', 'b4']);
  // Blocked in XREAD now: close ends it, without waiting for the read's own timeout.
  await follow.close();
  await add('f1:a', 'after close');
  assert.equal(values(seen, 'f1:a').length, 5, 'nothing after close');
  assert.deepEqual(problems, []);
});

test('a follow goes on from where it got to when the server goes away and comes back', async () => {
  const seen: FollowedEntries[] = [];
  const follow = await followStreams(redisTarget(redis.server.url), [{ key: 'f2', after: '0-0' }], (entries) => {
    seen.push(entries);
  }, () => undefined);
  try {
    await add('f2', 'before');
    await waitFor(() => values(seen, 'f2').length === 1, 'the first entry');
    await redis.server.stop();
    await redis.server.start();
    await add('f2', 'after');
    await waitFor(() => values(seen, 'f2').length === 2, 'the entry added after the restart');
    assert.deepEqual(values(seen, 'f2'), ['before', 'after'], 'nothing missed, nothing read twice');
  } finally {
    await follow.close();
  }
});

test('a follow closed from inside its own callback ends', async () => {
  let closed = false;
  const follow = await followStreams(redisTarget(redis.server.url), [{ key: 'f3', after: '0-0' }], async () => {
    await follow.close();
    closed = true;
  }, () => undefined);
  await add('f3', 'x');
  await waitFor(() => closed, 'the callback to close the follow');
  await follow.close();
});
