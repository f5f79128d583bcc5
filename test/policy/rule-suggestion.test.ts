import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { suggestRule } from '../../src/policy/rule-suggestion.js';
import { judgeByRules, parseRule, type PermissionRule } from '../../src/policy/rules.js';

const CWD = '/tmp/work';

describe('the rule the approval queue suggests', () => {
  test('a command: its program and subcommand as a prefix, options and files left out', () => {
    assert.equal(suggestRule('bash', { command: 'npm test -- --watch' }, CWD), 'bash(npm test*)');
    assert.equal(suggestRule('bash', { command: 'git  commit -m "x"' }, CWD), 'bash(git commit*)');
    assert.equal(suggestRule('bash', { command: 'ls -la src' }, CWD), 'bash(ls*)');
    assert.equal(suggestRule('bash', { command: 'CI=1 npm run build' }, CWD), 'bash(npm run*)');
    assert.equal(suggestRule('bash', { command: '   ' }, CWD), undefined);
    assert.equal(suggestRule('bash', { cmd: 'ls' }, CWD), undefined);
    assert.equal(suggestRule('bash', { command: 'npm\u001b[2J x' }, CWD), undefined, 'no terminal control reaches the input line');
  });

  test('a written or edited file: its directory, relative to the working directory', () => {
    assert.equal(suggestRule('write_file', { path: 'src/ui/keys.ts' }, CWD), 'write_file(src/ui/**)');
    assert.equal(suggestRule('edit_file', { path: `${CWD}/src/a.ts` }, CWD), 'edit_file(src/**)');
    assert.equal(suggestRule('write_file', { path: 'README.md' }, CWD), 'write_file(README.md)', 'a top-level file, not every file');
    assert.equal(suggestRule('write_file', { path: '../elsewhere/a.ts' }, CWD), undefined, 'no file rule matches outside the working directory');
    assert.equal(suggestRule('write_file', { path: '/etc/passwd' }, CWD), undefined);
  });

  test('every suggestion parses and allows the very call it was made for', () => {
    const calls: [string, Record<string, unknown>][] = [
      ['bash', { command: 'npm test -- --watch' }],
      ['bash', { command: 'git commit -m x' }],
      ['write_file', { path: 'src/ui/keys.ts', content: '' }],
      ['edit_file', { path: 'README.md' }],
    ];
    for (const [tool, input] of calls) {
      const text = suggestRule(tool, input, CWD);
      assert.ok(text, tool);
      const rule = parseRule(text);
      assert.notEqual(typeof rule, 'string', `${text}: ${String(rule)}`);
      const verdict = judgeByRules({ allow: [rule as PermissionRule], deny: [], network: [] }, tool, input, CWD, typeof input.path === 'string' ? input.path : undefined);
      assert.equal(verdict.allowed, true, text);
    }
  });
});
