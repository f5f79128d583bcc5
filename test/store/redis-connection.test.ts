import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectRedis, reconnectDelay, redisTarget } from '../../src/store/redis/connection.js';
import type { StoreStatus } from '../../src/store/team-store.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { waitFor } from '../helpers/wait.js';

let server: RedisServer;
before(async () => {
  server = await startRedisServer();
});
after(async () => {
  await server.close();
});

test('a Redis URL beyond loopback without a password is refused, and no message shows a password', () => {
  assert.throws(() => redisTarget('redis://10.0.0.5:6379'), /Redis authentication is required beyond loopback/);
  assert.throws(() => redisTarget('http://u:secret@example.com'), (error: Error) => /redis:\/\//.test(error.message) && !error.message.includes('secret'));
  assert.throws(() => redisTarget('not a url'), /not a URL/);
  assert.equal(redisTarget('redis://u:secret@10.0.0.5:6379').shown, 'redis://10.0.0.5:6379');
  for (const loopback of ['redis://127.0.0.1:6379', 'redis://localhost:1', 'redis://[::1]:6379']) assert.equal(redisTarget(loopback).url, loopback);
});

test('reconnecting waits longer each time, up to two seconds', () => {
  assert.deepEqual([0, 1, 2, 5, 6, 30].map(reconnectDelay), [50, 100, 200, 1600, 2000, 2000]);
});

test('a connection says once that Redis is down, once that it is back, and its commands go on', async () => {
  const statuses: StoreStatus[] = [];
  const client = await connectRedis(redisTarget(server.url), (status) => statuses.push(status));
  try {
    await client.set('k', 'before');
    await server.stop();
    await waitFor(() => statuses.some((s) => s.state === 'down'), 'the connection to report Redis down');
    const pending = client.get('k');
    await server.start();
    assert.equal(await pending, 'before');
    await waitFor(() => statuses.at(-1)?.state === 'up', 'the connection to report Redis up again');
    assert.deepEqual(statuses.map((s) => s.state), ['down', 'up']);
    const down = statuses[0];
    assert.ok(down?.state === 'down' && down.reason.includes(`127.0.0.1:${server.port}`), JSON.stringify(down));
  } finally {
    client.destroy();
  }
});
