import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, runCli } from '../helpers/cli.js';
import { tempHome } from '../helpers/temp.js';
import { killAll, spawnNode } from '../helpers/children.js';
import { assertInert, show } from '../helpers/hostile.js';
import { teamPaths } from '../../src/team/paths.js';
import { TeamBus } from '../../src/team/bus.js';
import { filesOf, storeOf } from '../helpers/store.js';

after(killAll);

describe('teams: errors name the problem, escape what they quote, and write nothing', () => {
  const { home, cleanup } = tempHome();
  after(cleanup);
  const store = storeOf(home);
  before(async () => {
    for (const name of ['alice', 'bob']) assert.equal((await runCli(home, ['member', 'add', name, '--role', 'coder'])).code, 0);
    // As the lead's process sends it (the CLI itself sends only through a running lead).
    await new TeamBus(store).send({ type: 'message', from: 'lead', to: 'bob', text: 'hello', summary: 'hello' });
    assert.equal((await runCli(home, ['member', 'remove', 'bob'])).code, 0);
  });

  test('a mistyped command suggests the one meant; a word like no command says where to look', async () => {
    const typo = await runCli(home, ['stauts']);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /unknown command 'stauts' \(did you mean `teams status`\?\)/);
    const far = await runCli(home, ['frobnicate']);
    assert.equal(far.code, 2);
    assert.match(far.stderr, /unknown command 'frobnicate' \(see `teams --help`\)/);
  });

  test('the top-level help shows how to start the REPL: --continue (-c), --resume (-r), --offline, --model', async () => {
    const help = await runCli(home, ['--help']);
    for (const flag of [/-c, --continue/, /-r, --resume <id>/, /--offline/, /--model <id>/]) assert.match(help.stdout, flag);
  });

  test('teams audit is the audit log; teams log still works, hidden from the help', async () => {
    const audit = await runCli(home, ['audit', '--json']);
    assert.equal(audit.code, 0, audit.stderr);
    const log = await runCli(home, ['log', '--json']);
    assert.equal(log.stdout, audit.stdout);
    const help = await runCli(home, ['--help']);
    assert.match(help.stdout, /^ {2}audit /m);
    assert.doesNotMatch(help.stdout, /^ {2}log /m);
  });

  test('log --agent: an unknown agent is refused like inbox refuses it; a removed member still has its history', async () => {
    const auditBefore = await store.audit.read();
    for (const command of ['log', 'inbox']) {
      const args = command === 'log' ? ['log', '--agent', 'alcie'] : ['inbox', 'alcie'];
      const result = await runCli(home, args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stderr, "teams: unknown agent 'alcie': not a member of team 'default'; did you mean 'alice'?\n");
      assert.equal(result.stdout, '');
    }
    const nobody = await runCli(home, ['log', '--agent', 'nobody', '--follow']);
    assert.equal(nobody.code, 2, 'refused before following');
    assert.match(nobody.stderr, /unknown agent 'nobody'/);
    const removed = await runCli(home, ['log', '--agent', 'bob']);
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /lead → bob \[message\] hello/);
    assert.deepEqual(await store.audit.read(), auditBefore);
  });

  test('a name with control characters is quoted escaped, on one line', async () => {
    const cases = [
      ['member', 'add', 'a\nb', '--role', 'coder'],
      ['send', 'x\u001b[2Jy', 'hi'],
      ['inbox', 'x\u001b]0;pwned\u0007'],
      ['log', '--agent', 'x\u009b1m'],
      ['member', 'remove', 'x\ry'],
    ];
    for (const args of cases) {
      const result = await runCli(home, args);
      assertInert(result.stderr, args.join(' '));
      assert.equal(result.code, 2, show(`${args.join(' ')}: ${result.stderr}`));
      assert.equal(result.stderr.split('\n').length, 2, `one line: ${show(result.stderr)}`);
    }
    assert.match((await runCli(home, ['member', 'add', 'a\nb', '--role', 'coder'])).stderr, /agent name 'a\\nb' must match/);
  });

  test('an empty --home or TEAMS_HOME is refused, not read as the current directory', async () => {
    const cwd = mkdtempSync(join(home, 'cwd-'));
    const { TEAMS_HOME: _home, TEAMS_TEAM: _team, ...base } = process.env;
    for (const [args, env, pattern] of [
      [['--home', '', 'member', 'add', 'carol', '--role', 'coder'], {}, /^teams: --home is empty/],
      [['--home', ' ', 'status'], {}, /^teams: --home is empty/],
      [['member', 'add', 'carol', '--role', 'coder'], { TEAMS_HOME: '' }, /^teams: TEAMS_HOME is empty/],
    ] as const) {
      const child = spawnNode(CLI, [...args], { cwd, env: { ...base, ...env } });
      const { code } = await child.exited;
      assert.equal(code, 2, `${args.join(' ')}: ${child.stderr()}`);
      assert.match(child.stderr(), pattern);
      assert.deepEqual(readdirSync(cwd), [], 'nothing written where the command ran');
    }
  });

  describe('a config.json that is not one', () => {
    const other = tempHome();
    after(other.cleanup);
    const { config } = filesOf(teamPaths(other.home, 'default'));

    test('binary bytes: the file is named, the problem described, no raw byte echoed', async () => {
      mkdirSync(join(other.home, 'default'), { recursive: true });
      const bytes = Buffer.concat([Buffer.from([0x7b, 0x22, 0x00, 0xff, 0xfe, 0x9b]), Buffer.from('\u001b[2J\u001b]0;pwned\u0007\u009b')]);
      writeFileSync(config, bytes);
      for (const args of [['status'], ['member', 'add', 'alice', '--role', 'coder']]) {
        const result = await runCli(other.home, args);
        assertInert(result.stderr, args.join(' '));
        assert.equal(result.code, 1, result.stderr);
        assert.equal(result.stderr, `teams: ${config} is not a team config file: it holds binary data (control character \\x00 at character 2)\n`);
      }
      assert.deepEqual(readFileSync(config), bytes, 'left as it was');
      // Not binary, but not JSON either, with a C1 control in it: the parser's words, escaped.
      writeFileSync(config, '{"name": "\u009b1m');
      const result = await runCli(other.home, ['status']);
      assertInert(result.stderr, 'status');
      assert.equal(result.code, 1);
      assert.match(result.stderr, new RegExp(`^teams: ${config.replace(/[.\\]/g, '\\$&')} is not valid JSON \\(`));
    });

    test('a directory: says so and names it', async () => {
      rmSync(config);
      mkdirSync(config);
      for (const args of [['status'], ['log'], ['member', 'add', 'alice', '--role', 'coder']]) {
        const result = await runCli(other.home, args);
        assert.equal(result.code, 1, result.stderr);
        assert.equal(result.stderr, `teams: ${config}: is a directory, not a team config file\n`);
      }
    });
  });
});
