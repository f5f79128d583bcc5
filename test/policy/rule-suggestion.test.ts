import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { suggestRule } from '../../src/policy/rule-suggestion.js';
import { judgeByRules, parseRule, type PermissionRule } from '../../src/policy/rules.js';

const CWD = '/tmp/work';

describe('the rule the approval queue suggests', () => {
  test('a command: the exact command, or its fixed words with :* where its tail is an argument', () => {
    const cases: [string, string | undefined][] = [
      ['npm test', 'Bash(npm test)'],
      ['npm test -- --watch', 'Bash(npm test -- --watch)'],
      ['git  commit -m "fix the bug"', 'Bash(git commit -m:*)'],
      ['npm install lodash react', 'Bash(npm install:*)'],
      ['ls -la src', 'Bash(ls -la:*)'],
      ['cat README.md', 'Bash(cat:*)'],
      ['make', 'Bash(make)'],
      ['CI=1 npm run build', 'Bash(CI=1 npm run build)'],
      ['npm test 2>&1', 'Bash(npm test)'],
      ['npm test > /dev/null', 'Bash(npm test)'],
      ['   ', undefined],
      ['npm test && curl x', undefined],
      ['npm test > out.txt', undefined],
      ['echo $(date)', undefined],
      ['echo "unclosed', undefined],
      ['sh -c "ls x"', undefined],
      ['find . -exec ls {} +', undefined],
    ];
    for (const [command, expected] of cases) assert.equal(suggestRule('bash', { command }, CWD), expected, command);
    assert.equal(suggestRule('bash', { cmd: 'ls' }, CWD), undefined);
    assert.equal(suggestRule('bash', { command: 'npm\u001b[2J x' }, CWD), undefined, 'no terminal control reaches the input line');
  });

  test('never rm* or Bash(rm:*): a destructive command, or one that runs code, is suggested exactly', () => {
    const cases: [string, string][] = [
      ['rm -rf build/cache', 'Bash(rm -rf build/cache)'],
      ['rm notes.txt', 'Bash(rm notes.txt)'],
      ['rm -rf "my dir"', "Bash(rm -rf 'my dir')"],
      ['git push --force origin main', 'Bash(git push --force origin main)'],
      ['cp a /etc/x', 'Bash(cp a /etc/x)'],
      ['sudo apt install x', 'Bash(sudo apt install x)'],
      ['python script.py', 'Bash(python script.py)'],
      ['./deploy.sh prod', 'Bash(./deploy.sh prod)'],
      ['echo $HOME', "Bash(echo '$HOME')"],
    ];
    for (const [command, expected] of cases) assert.equal(suggestRule('bash', { command }, CWD), expected, command);
  });

  test('a written or edited file: its directory, relative to the working directory', () => {
    assert.equal(suggestRule('write_file', { path: 'src/ui/keys.ts' }, CWD), 'Edit(src/ui/**)');
    assert.equal(suggestRule('edit_file', { path: `${CWD}/src/a.ts` }, CWD), 'Edit(src/**)');
    assert.equal(suggestRule('write_file', { path: 'README.md' }, CWD), 'Edit(README.md)', 'a top-level file, not every file');
    assert.equal(suggestRule('write_file', { path: '../elsewhere/a.ts' }, CWD), undefined, 'no file rule matches outside the working directory');
    assert.equal(suggestRule('write_file', { path: '/etc/passwd' }, CWD), undefined);
  });

  test('every suggestion parses and allows the very call it was made for', () => {
    const calls: [string, Record<string, unknown>][] = [
      ['bash', { command: 'npm test -- --watch' }],
      ['bash', { command: 'git commit -m x' }],
      ['bash', { command: 'rm -rf "my dir"' }],
      ['bash', { command: "git commit -m 'it''s \"done\"'" }],
      ['bash', { command: 'echo $HOME' }],
      ['bash', { command: 'python -m http.server' }],
      ['write_file', { path: 'src/ui/keys.ts', content: '' }],
      ['edit_file', { path: 'README.md' }],
    ];
    for (const [tool, input] of calls) {
      const text = suggestRule(tool, input, CWD);
      assert.ok(text, tool);
      const rule = parseRule(text);
      assert.notEqual(typeof rule, 'string', `${text}: ${String(rule)}`);
      const verdict = judgeByRules({ allow: [rule as PermissionRule], deny: [], ask: [], network: [] }, tool, input, CWD, typeof input.path === 'string' ? input.path : undefined);
      assert.equal(verdict.allowed, true, text);
    }
  });
});
