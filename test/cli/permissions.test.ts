import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempHome } from '../helpers/temp.js';
import { killAll } from '../helpers/children.js';
import { loadProjectRules } from '../../src/lead/project-settings.js';

after(killAll);

function fresh(): string {
  const { home, cleanup } = tempHome('teams-rules-');
  after(cleanup);
  // The user layer: each test's own (the children inherit it), never the human's ~/.config/teams.
  process.env.TEAMS_CONFIG_DIR = join(home, 'user-config');
  return home;
}

type Lists = { allow: string[]; deny: string[]; network: string[] };

async function listed(home: string): Promise<Lists> {
  const result = await runCli(home, ['permissions', '--json']);
  assert.equal(result.code, 0, result.stderr);
  const { allow, deny, network } = JSON.parse(result.stdout) as Lists;
  return { allow, deny, network };
}

describe('teams permissions / allow / deny', () => {
  test('rules are added, listed, kept once, and removed', async () => {
    const home = fresh();
    assert.deepEqual(await listed(home), { allow: [], deny: [], network: [] });
    const added = await runCli(home, ['allow', 'Bash(npm   test:*)']);
    assert.equal(added.code, 0, added.stderr);
    assert.equal(added.stdout, 'allow Bash(npm test:*)\n');
    assert.equal((await runCli(home, ['allow', 'write_file(src/**)'])).code, 0);
    assert.equal((await runCli(home, ['deny', 'bash(curl *)'])).code, 0);
    // The older spelling is the same rule.
    const again = await runCli(home, ['allow', 'bash(npm test*)']);
    assert.equal(again.code, 0);
    assert.match(again.stdout, /Bash\(npm test:\*\) is already an allow rule; nothing changed/);
    assert.deepEqual(await listed(home), { allow: ['Bash(npm test:*)', 'Write(src/**)'], deny: ['Bash(curl:*)'], network: [] });

    const text = await runCli(home, ['permissions']);
    assert.match(text.stdout, /\n {3}1\. allow {3}Bash\(npm test:\*\) {2}\(project\)\n {3}2\. allow {3}Write\(src\/\*\*\) {2}\(project\)\n {3}3\. deny {4}Bash\(curl:\*\) {2}\(project\)\n/);
    // The file is Claude Code's shape.
    assert.deepEqual(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')), {
      permissions: { allow: ['Bash(npm test:*)', 'Write(src/**)'], deny: ['Bash(curl:*)'] },
    });

    const removed = await runCli(home, ['permissions', '--remove', 'bash(curl *)']);
    assert.equal(removed.stdout, `removed Bash(curl:*) from ${join(home, 'settings.json')}\n`);
    const missing = await runCli(home, ['permissions', '--remove', 'Bash(curl:*)']);
    assert.match(missing.stdout, /no rule Bash\(curl:\*\) in any settings file; nothing removed/);
    assert.deepEqual(await listed(home), { allow: ['Bash(npm test:*)', 'Write(src/**)'], deny: [], network: [] });
  });

  test('allow --network adds the rule to the allow and the network lists; only a Bash rule can be one', async () => {
    const home = fresh();
    const added = await runCli(home, ['allow', 'Bash(npm install:*)', '--network']);
    assert.equal(added.code, 0, added.stderr);
    assert.equal(added.stdout, 'allow and network Bash(npm install:*)\n');
    assert.match((await runCli(home, ['allow', 'Bash(npm install:*)', '--network'])).stdout, /already an allow and network rule; nothing changed/);
    assert.deepEqual(await listed(home), { allow: ['Bash(npm install:*)'], deny: [], network: ['Bash(npm install:*)'] });
    assert.match((await runCli(home, ['permissions'])).stdout, /\n {3}2\. network Bash\(npm install:\*\) {2}\(project\)\n/);
    assert.deepEqual(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')), {
      permissions: { allow: ['Bash(npm install:*)'], deny: [], network: ['Bash(npm install:*)'] },
    });
    const refused = await runCli(home, ['allow', 'write_file(src/**)', '--network']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /Write\(src\/\*\*\) cannot be a network rule: a network rule names bash commands, e.g. Bash\(npm install:\*\)/);
    assert.equal((await runCli(home, ['permissions', '--remove', 'Bash(npm install:*)'])).code, 0);
    assert.deepEqual(await listed(home), { allow: [], deny: [], network: [] }, 'removed from every list');
  });

  test("a settings file's network list holds Bash rules only", () => {
    const home = fresh();
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ permissions: { network: ['Bash(npm ci)', 'read_file'] } }));
    assert.throws(() => loadProjectRules(home), /settings\.json: permissions\.network\.1: a network rule names bash commands/);
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ permissions: { network: ['bash(npm install*)'] } }));
    assert.deepEqual(loadProjectRules(home).network, [{ tool: 'bash', pattern: 'npm install:*' }]);
  });

  test('a malformed rule is refused with the reason, and nothing is written', async () => {
    const home = fresh();
    const cases: [string[], RegExp][] = [
      [['allow', 'Shell(ls)'], /invalid rule: unknown tool 'Shell'/],
      [['allow', 'Bash(git * main)'], /invalid rule: .*a '\*' matches only at the end of a bash pattern, written ':\*'/],
      [['allow', 'Edit(/etc/**)'], /invalid rule: file pattern '\/etc\/\*\*' must be relative/],
      [['deny', 'bash(curl *'], /invalid rule: unbalanced parentheses/],
      [['allow', 'bash()'], /invalid rule: empty pattern/],
      [['allow', 'write_file(../x)'], /relative to the working directory/],
      [['permissions', '--remove', 'nope'], /unknown tool 'nope'/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(home, args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, message);
    }
    assert.equal(existsSync(join(home, 'settings.json')), false);
  });

  test('a malformed settings file is an error naming the file and the field, never "no rules"', async () => {
    const home = fresh();
    mkdirSync(home, { recursive: true });
    const file = join(home, 'settings.json');
    const cases: [string, RegExp][] = [
      ['{ not json', /settings\.json: not JSON/],
      ['{"permissions": {"allow": ["bash(ls)", "bash(ls"]}}', /settings\.json: permissions\.allow\.1: unbalanced parentheses/],
      ['{"permissions": {"deny": "bash(curl *)"}}', /settings\.json: permissions\.deny: /],
      ['[]', /settings\.json: settings: /],
    ];
    for (const [content, message] of cases) {
      writeFileSync(file, content);
      for (const args of [['permissions'], ['allow', 'read_file']]) {
        const result = await runCli(home, args);
        assert.equal(result.code, 2, `${content}: ${args.join(' ')}`);
        assert.match(result.stderr, message);
      }
      assert.throws(() => loadProjectRules(home), message);
      assert.equal(readFileSync(file, 'utf8'), content, 'a malformed file is left as it was');
    }
  });

  test('fields this version does not know are kept when a rule is added', async () => {
    const home = fresh();
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ theme: 'dark', permissions: { allow: ['read_file'], ask: ['bash(git push *)'], defaultMode: 'plan' } }));
    assert.equal((await runCli(home, ['deny', 'bash(rm *)'])).code, 0);
    assert.deepEqual(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')), {
      theme: 'dark',
      permissions: { allow: ['Read'], ask: ['Bash(git push:*)'], deny: ['Bash(rm:*)'], defaultMode: 'plan' },
    });
  });

  test('concurrent writers each add their rule: none is lost', async () => {
    const home = fresh();
    const rules = Array.from({ length: 8 }, (_, i) => `Bash(task${i}:*)`);
    const results = await Promise.all(rules.map((rule) => runCli(home, ['allow', rule])));
    for (const result of results) assert.equal(result.code, 0, result.stderr);
    assert.deepEqual((await listed(home)).allow.sort(), [...rules].sort());
  });

  test('teams ask adds an ask rule; --scope names the layer; --remove N takes the numbers the list shows', async () => {
    const home = fresh();
    const asked = await runCli(home, ['ask', 'Bash(git push:*)']);
    assert.equal(asked.code, 0, asked.stderr);
    assert.equal(asked.stdout, 'ask Bash(git push:*)\n');
    const local = await runCli(home, ['allow', 'Bash(ls:*)', '--scope', 'local']);
    assert.equal(local.stdout, `allow Bash(ls:*) (in ${join(home, 'settings.local.json')})\n`);
    const user = await runCli(home, ['deny', 'Bash(curl:*)', '--scope', 'user']);
    assert.equal(user.code, 0, user.stderr);
    assert.ok(existsSync(join(home, 'user-config', 'settings.json')));
    const json = JSON.parse((await runCli(home, ['permissions', '--json'])).stdout) as { ask: string[]; rules: { number: number; kind: string; rule: string; scope: string }[] };
    assert.deepEqual(json.ask, ['Bash(git push:*)']);
    assert.deepEqual(json.rules.map((r) => `${r.number} ${r.kind} ${r.rule} ${r.scope}`), ['1 allow Bash(ls:*) local', '2 deny Bash(curl:*) user', '3 ask Bash(git push:*) project']);
    const removed = await runCli(home, ['permissions', '--remove', '2']);
    assert.equal(removed.stdout, `removed deny rule Bash(curl:*) from ${join(home, 'user-config', 'settings.json')}\n`);
    const none = await runCli(home, ['permissions', '--remove', '9']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no rule number 9 \(there are 2 rules/);
    const bad = await runCli(home, ['allow', 'Bash(ls)', '--scope', 'team']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Allowed choices are user, project, local/);
  });
});
