import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, startCli } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { killAll } from '../helpers/children.js';
import { startRedisServer } from '../helpers/redis-server.js';
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

  test('a remote Redis without a password is refused plainly; a password is never shown', async () => {
    const open = await runCli(home, ['status'], { TEAMS_STORE: 'redis://10.255.255.1:6379' });
    assert.equal(open.code, 2, open.stderr);
    assert.match(open.stderr, /Redis authentication is required beyond loopback/);
    const hostless = await runCli(home, ['status'], { TEAMS_STORE: `redis://teams:${SECRET}@` });
    assert.equal(hostless.code, 2, hostless.stderr);
    assert.ok(!hostless.stderr.includes(SECRET), hostless.stderr);
  });

  test('--store redis://… keeps the team on that server, not under --home', async (t) => {
    const server = await startRedisServer();
    t.after(() => server.close());
    const added = await runCli(home, ['--team', 'onredis', '--store', server.url, 'member', 'add', 'bob', '--role', 'tester']);
    assert.equal(added.code, 0, added.stderr);
    assert.equal(existsSync(join(home, 'onredis')), false, 'nothing under --home');
    const status = await runCli(home, ['--team', 'onredis', 'status', '--json'], { TEAMS_STORE: server.url });
    assert.equal(status.code, 0, status.stderr);
    assert.deepEqual((JSON.parse(status.stdout) as { members: { name: string }[] }).members.map((m) => m.name), ['lead', 'bob']);
    assert.equal((await runCli(home, ['--team', 'onredis', 'status'])).code, 2, 'the file store has no such team');
  });

  test('--help names the option and its variable, and shows no value', async () => {
    const result = await runCli(home, ['--help'], { TEAMS_STORE: `redis://teams:${SECRET}@127.0.0.1:1` });
    assert.equal(result.code, 0, result.stderr);
    // Help wraps its lines: read as one.
    const help = result.stdout.replace(/\s+/g, ' ');
    assert.match(help, /--store <url> the team's shared store: file: \(the default, under --home\) or redis:\/\/… \(env: TEAMS_STORE\)/);
    assert.ok(!result.stdout.includes(SECRET));
  });

  test('with Redis down a command says so once, waits, and completes when Redis is back', async (t) => {
    const server = await startRedisServer();
    t.after(() => server.close());
    assert.equal((await runCli(home, ['member', 'add', 'carol', '--role', 'coder'], { TEAMS_STORE: server.url })).code, 0);
    await server.stop();
    const status = startCli(home, ['status', '--json'], { TEAMS_STORE: server.url });
    await waitFor(() => status.stderr().includes('is unreachable'), 'the command to say Redis is down', 15_000);
    assert.match(status.stderr(), new RegExp(`teams: Redis at redis://127\\.0\\.0\\.1:${server.port}/? is unreachable \\(.*\\); retrying`));
    await server.start();
    const exit = await status.exited;
    assert.equal(exit.code, 0, status.stderr());
    assert.match(status.stderr(), /the team store is reachable again/);
    assert.ok(status.stdout().includes('"carol"'), status.stdout());
  });
});
