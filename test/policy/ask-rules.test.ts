import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { alwaysKey, decideToolUse, type ToolUse } from '../../src/policy/approvals.js';
import { parseRule, NO_RULES, type PermissionRule, type PermissionRules } from '../../src/policy/rules.js';
import { ruleSettles } from '../../src/policy/rule-settles.js';
import { READ_ONLY_GRANT } from '../../src/policy/grant.js';
import type { PermissionMode } from '../../src/protocol/messages.js';

const CWD = '/w/proj';

function rule(text: string): PermissionRule {
  const parsed = parseRule(text);
  assert.notEqual(typeof parsed, 'string', String(parsed));
  return parsed as PermissionRule;
}

function rules(lists: Partial<Record<keyof PermissionRules, string[]>>): PermissionRules {
  return { allow: (lists.allow ?? []).map(rule), deny: (lists.deny ?? []).map(rule), ask: (lists.ask ?? []).map(rule), network: (lists.network ?? []).map(rule) };
}

function decide(mode: PermissionMode, tool: string, input: unknown, given: PermissionRules, extra: Partial<ToolUse> = {}) {
  return decideToolUse({ tool, input, mode, cwd: CWD, planApproved: false, alwaysAllowed: new Set(), rules: given, ...extra });
}

describe('ask rules (Claude Code\'s `ask` list)', () => {
  const push = { command: 'git push origin main' };

  test('an ask rule turns a call an allow rule would let run into a question naming the rule; approved, it gets what the allow rule gave', () => {
    const given = rules({ allow: ['Bash(git:*)'], ask: ['Bash(git push:*)'] });
    assert.deepEqual(decide('default', 'bash', { command: 'git log' }, given), { action: 'allow', grant: { write: true, network: false } });
    assert.deepEqual(decide('default', 'bash', push, given), {
      action: 'ask',
      reason: 'the rule Bash(git push:*) asks first: git push origin main',
      grant: { write: true, network: false },
    });
  });

  test('it holds over the mode, over "always", and for a read-only command, which stays read-only once approved', () => {
    const given = rules({ ask: ['Edit(src/secrets/**)', 'Bash(cat:*)'] });
    const write = { path: 'src/secrets/key.ts', content: 'x' };
    assert.equal(decide('accept-edits', 'write_file', write, given).action, 'ask');
    assert.equal(decide('accept-edits', 'write_file', { path: 'src/other.ts', content: 'x' }, given).action, 'allow', 'only what the rule names');
    const always = new Set([alwaysKey('write_file', write)]);
    assert.equal(decide('accept-edits', 'write_file', write, given, { alwaysAllowed: always }).action, 'ask');
    assert.deepEqual(decide('default', 'bash', { command: 'cat README.md' }, given), {
      action: 'ask',
      reason: 'the rule Bash(cat:*) asks first: cat README.md',
      grant: READ_ONLY_GRANT,
    });
    // Plan mode: a read-only call asks and stays read-only; what plan mode refuses stays refused.
    assert.deepEqual(decide('plan', 'bash', { command: 'cat README.md' }, given), { action: 'ask', reason: 'the rule Bash(cat:*) asks first: cat README.md', grant: READ_ONLY_GRANT });
    assert.equal(decide('plan', 'write_file', write, given).action, 'deny');
  });

  test('a deny rule wins over an ask rule; a call already asking keeps its own reason', () => {
    const given = rules({ ask: ['Bash(rm:*)'], deny: ['Bash(rm -rf:*)'] });
    assert.equal(decide('default', 'bash', { command: 'rm -rf build' }, given).action, 'deny');
    const own = decide('default', 'bash', { command: 'rm build', write: true }, given);
    assert.equal(own.action, 'ask');
    assert.doesNotMatch(own.action === 'ask' ? own.reason : '', /asks first/);
  });

  test('a command whose program is only known when it runs asks when an ask rule might name it, naming the ask rule', () => {
    const decision = decide('default', 'bash', { command: '$(echo git) push' }, rules({ allow: ['Bash'], ask: ['Bash(git push:*)'] }));
    assert.equal(decision.action, 'ask');
    assert.match(decision.action === 'ask' ? decision.reason : '', /cannot be checked against the ask rule Bash\(git push:\*\)/);
  });

  test('any part of a compound command matching an ask rule asks', () => {
    assert.equal(decide('default', 'bash', { command: 'git status && git push' }, rules({ allow: ['Bash(git:*)'], ask: ['Bash(git push:*)'] })).action, 'ask');
  });

  test('the ask list is read and shown back in Claude Code\'s words', () => {
    assert.deepEqual(rules({ ask: ['Bash(git push:*)', 'Edit(src/**)', 'Read(.env)'] }).ask.map((r) => r.tool), ['bash', 'Edit', 'read_file']);
  });
});

describe('a rule saved from the queue settles the other commands it covers', () => {
  const saved = rule('Bash(npm test:*)');
  test('a command the rule covers whole is settled; one it does not, or only in part, is not', () => {
    assert.equal(ruleSettles(saved, false, NO_RULES, 'bash', { command: 'npm test -- --watch' }), true);
    assert.equal(ruleSettles(saved, false, NO_RULES, 'bash', { command: 'npm install' }), false);
    assert.equal(ruleSettles(saved, false, NO_RULES, 'bash', { command: 'npm test && curl x' }), false);
  });

  test('the network only when the rule was saved as a network rule too', () => {
    assert.equal(ruleSettles(saved, false, NO_RULES, 'bash', { command: 'npm test', network: true }), false);
    assert.equal(ruleSettles(saved, true, NO_RULES, 'bash', { command: 'npm test', network: true }), true);
  });

  test('a deny or ask rule in force that speaks of the command keeps it waiting; a file request waits for its own answer', () => {
    assert.equal(ruleSettles(saved, false, rules({ ask: ['Bash(npm test -- --ci)'] }), 'bash', { command: 'npm test -- --ci' }), false);
    assert.equal(ruleSettles(saved, false, rules({ deny: ['Bash(npm:*)'] }), 'bash', { command: 'npm test' }), false);
    assert.equal(ruleSettles(rule('Edit(src/**)'), false, NO_RULES, 'write_file', { path: 'src/a.ts', content: '' }), false);
  });
});
