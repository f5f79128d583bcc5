import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Refused } from '../../src/lib/refused.js';
import { openStore } from '../../src/store/open-store.js';
import type { StoreStatus } from '../../src/store/team-store.js';
import { startRedisServer } from '../helpers/redis-server.js';
import { waitFor } from '../helpers/wait.js';
import { parseStoreDescriptor, redactDescriptor } from '../../src/store/store-descriptor.js';
import { tempHome } from '../helpers/temp.js';

const SECRET = 's3cret-pa55';

describe('store descriptors', () => {
  test('file: or nothing is the file store; redis:// and rediss:// URLs are Redis', () => {
    for (const descriptor of [undefined, '', '  ', 'file:']) assert.deepEqual(parseStoreDescriptor(descriptor), { kind: 'file' }, String(descriptor));
    assert.deepEqual(parseStoreDescriptor('redis://127.0.0.1:6379'), { kind: 'redis', url: 'redis://127.0.0.1:6379' });
    assert.deepEqual(parseStoreDescriptor(`rediss://teams:${SECRET}@redis.example:6380/2`), { kind: 'redis', url: `rediss://teams:${SECRET}@redis.example:6380/2` });
  });

  test('redaction hides user and password, and nothing else', () => {
    assert.equal(redactDescriptor(`redis://teams:${SECRET}@host:6379/0`), 'redis://***@host:6379/0');
    assert.equal(redactDescriptor(`rediss://:${SECRET}@host`), 'rediss://***@host');
    assert.equal(redactDescriptor('redis://host:6379'), 'redis://host:6379');
    assert.equal(redactDescriptor('file:'), 'file:');
    // An @ in the path is no user: left alone.
    assert.equal(redactDescriptor('redis://host/a@b'), 'redis://host/a@b');
  });

  test('anything else is refused with the accepted schemes, and never shows a password', () => {
    const cases: [string, RegExp][] = [
      [`mysql://root:${SECRET}@db/teams`, /unknown store 'mysql:\/\/\*\*\*@db\/teams': give `file:` \(the default: the file store under --home\) or a Redis URL, redis:\/\/… or rediss:\/\/…/],
      ['/var/lib/teams', /unknown store '\/var\/lib\/teams': give `file:`/],
      ['file:/elsewhere', /the file store lives under --home; give `file:` alone/],
      [`redis://u:${SECRET}@`, /store 'redis:\/\/\*\*\*@' (is not a valid URL|names no host)/],
      ['redis://', /store 'redis:\/\/' (is not a valid URL|names no host)/],
    ];
    for (const [descriptor, pattern] of cases) {
      assert.throws(() => parseStoreDescriptor(descriptor), (error: unknown) => {
        assert.ok(error instanceof Refused, `${descriptor}: a refusal, not a crash`);
        assert.match(error.message, pattern);
        assert.ok(!error.message.includes(SECRET), `${descriptor}: the password is not shown`);
        return true;
      });
    }
  });
});

describe('openStore', () => {
  const temp = tempHome('teams-open-store-');
  after(temp.cleanup);

  test('the file store under home, for the team: what one process writes, another opened by descriptor reads', async () => {
    const first = await openStore('file:', { home: temp.home, team: 'alpha' });
    await first.roster.ensure();
    assert.ok(existsSync(join(temp.home, 'alpha', 'config.json')), 'kept under <home>/<team>');
    const second = await openStore(undefined, { home: temp.home, team: 'alpha' });
    assert.deepEqual((await second.roster.load())?.members.map((m) => m.name), ['lead']);
    assert.equal(await (await openStore('', { home: temp.home, team: 'beta' })).roster.load(), undefined, 'another team is another store');
    await Promise.all([first.close(), second.close()]);
  });

  test('a bad team name, an unknown scheme and an unauthenticated remote Redis are refused, the password never shown', async () => {
    await assert.rejects(openStore('file:', { home: temp.home, team: '../up' }), /team name/);
    await assert.rejects(openStore(`ftp://me:${SECRET}@x`, { home: temp.home, team: 'alpha' }), (error: unknown) => error instanceof Refused && error.message.includes('ftp://***@x') && !error.message.includes(SECRET));
    await assert.rejects(openStore('redis://10.1.2.3:6379', { home: temp.home, team: 'alpha' }), (error: unknown) => error instanceof Refused && /authentication is required/.test(error.message));
  });

  test('a Redis URL opens the Redis store; one that does not answer is said to be down until it does; wrong credentials are refused at once', async () => {
    const server = await startRedisServer();
    try {
      const redis = await openStore(server.url, { home: temp.home, team: 'gamma' });
      await redis.roster.ensure();
      assert.ok(existsSync(join(temp.home, 'gamma')) === false, 'nothing of a Redis team is kept under home');
      assert.deepEqual((await redis.roster.load())?.members.map((m) => m.name), ['lead']);
      await redis.close();
      await server.stop();
      const statuses: StoreStatus[] = [];
      const opening = openStore(server.url, { home: temp.home, team: 'gamma', onStatus: (status) => statuses.push(status) });
      const down = await waitFor(() => statuses.find((s) => s.state === 'down'), 'the store to say Redis is down');
      assert.ok(down.state === 'down' && down.reason.includes(`127.0.0.1:${server.port}`), down.state === 'down' ? down.reason : '');
      await server.start();
      const store = await opening;
      assert.deepEqual((await store.roster.load())?.members.map((m) => m.name), ['lead'], 'what was written before the server went down is there');
      await store.close();
      // Credentials the server refuses do not heal by waiting: refused at once, the password not shown.
      await assert.rejects(openStore(`redis://me:${SECRET}@127.0.0.1:${server.port}`, { home: temp.home, team: 'gamma' }), (error: unknown) => error instanceof Error && /refused this store's credentials/.test(error.message) && !error.message.includes(SECRET));
    } finally {
      await server.close();
    }
  });
});
