import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Refused } from '../../src/lib/refused.js';
import { openStore } from '../../src/store/open-store.js';
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

  test('a bad team name, an unknown scheme and (in this build) Redis are refused, the password never shown', async () => {
    await assert.rejects(openStore('file:', { home: temp.home, team: '../up' }), /team name/);
    await assert.rejects(openStore(`ftp://me:${SECRET}@x`, { home: temp.home, team: 'alpha' }), (error: unknown) => error instanceof Refused && error.message.includes('ftp://***@x') && !error.message.includes(SECRET));
    await assert.rejects(openStore(`redis://me:${SECRET}@127.0.0.1:6379`, { home: temp.home, team: 'alpha' }), (error: unknown) => error instanceof Refused && /not available in this build/.test(error.message) && !error.message.includes(SECRET));
  });
});
