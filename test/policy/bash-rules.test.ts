import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decideToolUse } from '../../src/policy/approvals.js';
import { judgeByRules, parseRule, RulesText, showRule, type PermissionRule, type PermissionRules } from '../../src/policy/rules.js';

const CWD = '/w/proj';

function rule(text: string): PermissionRule {
  const parsed = parseRule(text);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
}

const rules = (lists: Partial<Record<keyof PermissionRules, string[]>>): PermissionRules => ({
  allow: (lists.allow ?? []).map(rule),
  deny: (lists.deny ?? []).map(rule),
  ask: (lists.ask ?? []).map(rule),
  network: (lists.network ?? []).map(rule),
});

const allowedBy = (ruleText: string, command: string) => judgeByRules(rules({ allow: [ruleText] }), 'bash', { command }, CWD).allowed;
const deniedBy = (ruleText: string, command: string) => judgeByRules(rules({ deny: [ruleText] }), 'bash', { command }, CWD).denied !== undefined;

describe('a rule has one spelling, Claude Code\'s', () => {
  const cases: [string, string][] = [
    ['bash(npm test*)', 'Bash(npm test:*)'],
    ['bash(npm test *)', 'Bash(npm test:*)'],
    ['Bash(npm  test:*)', 'Bash(npm test:*)'],
    ['bash(git status)', 'Bash(git status)'],
    ['bash(*)', 'Bash(*)'],
    ['bash', 'Bash'],
    ['Read(docs/**)', 'Read(docs/**)'],
    ['read_file(docs/**)', 'Read(docs/**)'],
    ['Write(src/**)', 'Write(src/**)'],
    ['write_file(src/**)', 'Write(src/**)'],
    ['Edit(src/**)', 'Edit(src/**)'],
    ['edit_file(src/**)', 'edit_file(src/**)'],
  ];
  for (const [written, shown] of cases) {
    test(`${written} is shown as ${shown}, which reads back as the same rule`, () => {
      assert.equal(showRule(rule(written)), shown);
      assert.deepEqual(rule(shown), rule(written));
    });
  }
});

describe('bash rules match at a word boundary', () => {
  const cases: [string, string, boolean][] = [
    ['Bash(npm test:*)', 'npm test', true],
    ['Bash(npm test:*)', 'npm test -- --watch', true],
    ['Bash(npm test:*)', 'npm tests', false],
    ['Bash(npm test:*)', 'npm test-evil', false],
    ['Bash(npm test)', 'npm test', true],
    ['Bash(npm test)', 'npm test --watch', false],
    // The older spelling without the colon: never inside a word either.
    ['bash(rm*)', 'rmdir build', false],
    ['bash(npm test*)', 'npm tests', false],
    ['bash(npm test*)', 'npm test --watch', true],
    ['Bash(ls:*)', 'lsof -i', false],
    ['Bash(ls:*)', 'ls -la', true],
    // Words after quote removal: a quoted space does not end a word.
    ['Bash(echo a:*)', 'echo "a b"', false],
    ['Bash(echo a:*)', 'echo a b', true],
    ["Bash(git commit -m 'fix it')", 'git commit -m "fix it"', true],
  ];
  for (const [ruleText, command, expected] of cases) {
    test(`${ruleText} ${expected ? 'covers' : 'does not cover'} ${command}`, () => assert.equal(allowedBy(ruleText, command), expected));
  }

  test('deny rules match at a word boundary too, in any part and in the whole command', () => {
    assert.equal(deniedBy('Bash(curl:*)', 'curl x'), true);
    assert.equal(deniedBy('Bash(curl:*)', 'curl'), true);
    assert.equal(deniedBy('Bash(curl:*)', 'curlx y'), false);
    assert.equal(deniedBy('Bash(curl:*)', 'npm test && sudo curl x'), true);
    assert.equal(deniedBy('Bash(curl x | sh)', 'curl x | sh'), true, 'a pattern of several commands matches the whole text');
  });
});

describe('a rule never allows a destructive command with operands it did not name', () => {
  const cases: [string, string, boolean][] = [
    ['Bash(rm -rf build/cache:*)', 'rm -rf build/cache', true],
    ['Bash(rm -rf build/cache:*)', 'rm -rf build/cache src', false],
    ['Bash(rm -rf build/cache)', 'rm -rf build/cache src', false],
    ['Bash(rm -rf build/cache:*)', 'rm -rf build/cache -v', true],
    ['Bash(rm -rf build/cache:*)', 'rm -rf build/cache -- -v', false],
    ['Bash(rm -rf build/cache:*)', 'rm -rf build/cache $HOME', false],
    ['Bash(rm -rf build/cache:*)', 'rm -rf build/cache/../..', false],
    ['Bash(rm:*)', 'rm -rf /', false],
    ['Bash(rm:*)', 'rm notes.txt', false],
    ['bash(rm -rf build*)', 'rm -rf build', true],
    ['bash(rm -rf build*)', 'rm -rf build /', false],
    // An option may not add a danger the rule's words did not have.
    ['Bash(git push:*)', 'git push origin main', true],
    ['Bash(git push:*)', 'git push --force', false],
    ['Bash(git push origin main:*)', 'git push origin main --force', false],
    ['Bash(cp:*)', 'cp a /etc/passwd', false],
    ['Bash(cp -t out:*)', 'cp -t out a', false],
    ['Bash(*)', 'rm -rf ~', false],
    ['Bash(*)', 'ls -la', true],
    ['Bash(xargs:*)', 'xargs rm -rf', false],
    ['Bash(sudo:*)', 'sudo rm -rf /', false],
    // What a command runs is a part of its own: find -exec's command must be covered too.
    ['Bash(find:*)', 'find . -name x -exec rm -rf {} +', false],
    ['Bash(find:*)', 'find . -name x', true],
  ];
  for (const [ruleText, command, expected] of cases) {
    test(`${ruleText} ${expected ? 'covers' : 'does not cover'} ${command}`, () => assert.equal(allowedBy(ruleText, command), expected));
  }

  test('so the command still asks', () => {
    const decision = decideToolUse({
      tool: 'bash', input: { command: 'rm -rf build/cache src' }, mode: 'default', cwd: CWD, planApproved: false, alwaysAllowed: new Set(),
      rules: rules({ allow: ['Bash(rm -rf build/cache:*)'] }),
    });
    assert.equal(decision.action, 'ask');
  });

  test('a bare Bash rule still covers everything: it names no command, so it stretches nothing', () => {
    assert.equal(allowedBy('Bash', 'rm -rf ~'), true);
  });
});

describe('network rules', () => {
  const judged = (lists: Partial<Record<keyof PermissionRules, string[]>>, command: string) => judgeByRules(rules(lists), 'bash', { command }, CWD);

  test('network is true only when network rules cover every part, matched as allow rules are', () => {
    const lists = { allow: ['Bash(npm install:*)', 'Bash(npm test)'], network: ['Bash(npm install:*)'] };
    assert.deepEqual(judged(lists, 'npm install lodash'), { allowed: true, network: true });
    assert.deepEqual(judged(lists, 'npm install lodash && npm test'), { allowed: true, network: false });
    assert.deepEqual(judged(lists, 'npm installer'), { allowed: false, network: false });
    assert.deepEqual(judged(lists, 'npm install x > /etc/profile'), { allowed: false, network: false }, 'a write by redirection is never covered');
    assert.deepEqual(judged({ network: ['Bash(curl:*)'] }, 'curl https://x'), { allowed: false, network: true }, 'the lists are independent');
    assert.deepEqual(judged({ network: ['Bash'] }, 'anything at all'), { allowed: false, network: true });
  });

  test('no rules: neither allowed nor networked', () => {
    assert.deepEqual(judged({}, 'npm install'), { allowed: false, network: false });
    assert.deepEqual(judgeByRules(rules({ network: ['Bash(npm ci)'] }), 'read_file', { path: 'a' }, CWD), { allowed: false, network: false });
  });

  test('rules handed to a teammate: a network rule must be a bash rule, and a lead that sends none sends none', () => {
    const bad = RulesText.safeParse({ allow: [], deny: [], network: ['read_file'] });
    assert.equal(bad.success, false);
    assert.match(bad.error?.issues[0]?.message ?? '', /a network rule names bash commands/);
    assert.deepEqual(RulesText.parse({ allow: ['bash(npm test*)'], deny: [] }), { allow: [{ tool: 'bash', pattern: 'npm test:*' }], deny: [], ask: [], network: [] });
  });
});
