import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { killAll } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';

after(killAll);

const SECRET = 'pa55-w0rd';

describe('--store and TEAMS_STORE', () => {
  const { home, cleanup } = tempHome('teams-store-option-');
  after(cleanup);

  test('file: (or no store at all) is the file store under --home', async () => {
    const added = await runCli(home, ['--store', 'file:', 'member', 'add', 'alice', '--role', 'coder']);
    assert.equal(added.code, 0, added.stderr);
    assert.ok(existsSync(join(home, 'default', 'config.json')));
    const status = await runCli(home, ['status', '--json'], { TEAMS_STORE: 'file:' });
    assert.equal(status.code, 0, status.stderr);
    assert.deepEqual((JSON.parse(status.stdout) as { members: { name: string }[] }).members.map((m) => m.name), ['lead', 'alice']);
    assert.equal((await runCli(home, ['status'])).code, 0);
  });

  test('an unknown store is a usage error naming what is accepted, from the flag or the environment, its password never shown', async () => {
    for (const [args, env] of [
      [['--store', `mysql://root:${SECRET}@db/x`, 'status'], {}],
      [['status'], { TEAMS_STORE: `mysql://root:${SECRET}@db/x` }],
    ] as const) {
      const result = await runCli(home, [...args], { ...env });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /unknown store 'mysql:\/\/\*\*\*@db\/x': give `file:` \(the default: the file store under --home\) or a Redis URL/);
      assert.ok(!result.stderr.includes(SECRET) && !result.stdout.includes(SECRET));
    }
  });

  test('the flag wins over the environment', async () => {
    const result = await runCli(home, ['--store', 'file:', 'status'], { TEAMS_STORE: 'nonsense' });
    assert.equal(result.code, 0, result.stderr);
  });

  test('a Redis URL in a build without the Redis store is refused plainly, without its password', async () => {
    const result = await runCli(home, ['status'], { TEAMS_STORE: `redis://teams:${SECRET}@127.0.0.1:1` });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /the Redis store is not available in this build/);
    assert.ok(!result.stderr.includes(SECRET));
  });

  test('--help names the option and its variable, and shows no value', async () => {
    const result = await runCli(home, ['--help'], { TEAMS_STORE: `redis://teams:${SECRET}@127.0.0.1:1` });
    assert.equal(result.code, 0, result.stderr);
    // Help wraps its lines: read as one.
    const help = result.stdout.replace(/\s+/g, ' ');
    assert.match(help, /--store <url> the team's shared store: file: \(the default, under --home\) or redis:\/\/… \(env: TEAMS_STORE\)/);
    assert.ok(!result.stdout.includes(SECRET));
  });
});
