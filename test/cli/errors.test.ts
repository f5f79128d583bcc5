import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runCli } from '../helpers/cli.js';
import { tempHome } from '../helpers/temp.js';
import { killAll } from '../helpers/children.js';
import { assertInert, show } from '../helpers/hostile.js';
import { teamPaths } from '../../src/team/paths.js';

after(killAll);

describe('teams: errors name the problem, escape what they quote, and write nothing', () => {
  const { home, cleanup } = tempHome();
  after(cleanup);
  const paths = teamPaths(home, 'default');
  before(async () => {
    for (const name of ['alice', 'bob']) assert.equal((await runCli(home, ['member', 'add', name, '--role', 'coder'])).code, 0);
    assert.equal((await runCli(home, ['send', 'bob', 'hello'])).code, 0);
    assert.equal((await runCli(home, ['member', 'remove', 'bob'])).code, 0);
  });

  test('log --agent: an unknown agent is refused like inbox refuses it; a removed member still has its history', async () => {
    const auditBefore = readFileSync(paths.audit, 'utf8');
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
    assert.equal(readFileSync(paths.audit, 'utf8'), auditBefore);
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
});
