import { posix } from 'node:path';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decideToolUse, type ToolDecision, type ToolUse } from '../../src/policy/approvals.js';
import { globMatches, judgeByRules, parseRule, type PermissionRule, type PermissionRules } from '../../src/policy/rules.js';
import type { PermissionMode } from '../../src/protocol/messages.js';
import { FULL_GRANT, READ_ONLY_GRANT } from '../../src/policy/grant.js';

/** What an approved command, or one an allow rule covers, runs with: write, no network. */
const WRITE = { write: true, network: false };

const CWD = '/w/proj';

function rule(text: string): PermissionRule {
  const parsed = parseRule(text);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
}

function rules(allow: string[], deny: string[] = []): PermissionRules {
  return { allow: allow.map(rule), deny: deny.map(rule), ask: [], network: [] };
}

function decide(mode: PermissionMode, tool: string, input: unknown, ruleSet: PermissionRules, extra: Partial<ToolUse> = {}): ToolDecision {
  return decideToolUse({ tool, input, mode, cwd: CWD, planApproved: false, alwaysAllowed: new Set(), rules: ruleSet, ...extra });
}

const bash = (command: string) => ({ command });

/** Where a path leads when no symbolic link is on it, as the harness would find it: undefined outside. */
function unlinked(path: string): string | undefined {
  const relative = posix.relative(CWD, posix.resolve(CWD, path));
  return relative.startsWith('..') || posix.isAbsolute(relative) ? undefined : relative;
}

describe('parsing a rule', () => {
  const cases: [string, PermissionRule | RegExp][] = [
    ['read_file', { tool: 'read_file' }],
    ['Bash(npm test:*)', { tool: 'bash', pattern: 'npm test:*' }],
    ['bash(npm test:*)', { tool: 'bash', pattern: 'npm test:*' }],
    // The older spelling, still read: the same rule, at a word boundary.
    ['bash(npm test*)', { tool: 'bash', pattern: 'npm test:*' }],
    ['bash(curl *)', { tool: 'bash', pattern: 'curl:*' }],
    ['Bash(*)', { tool: 'bash', pattern: '*' }],
    ['Bash(:*)', { tool: 'bash', pattern: '*' }],
    ['Bash', { tool: 'bash' }],
    ['  bash(git   status) ', { tool: 'bash', pattern: 'git status' }],
    ["Bash(git commit -m 'a  b':*)", { tool: 'bash', pattern: "git commit -m 'a b':*" }],
    ["Bash(ls '*.ts')", { tool: 'bash', pattern: "ls '*.ts'" }],
    ['Bash(git * main)', /a '\*' matches only at the end of a bash pattern, written ':\*'/],
    ['Bash(ls *.ts)', /a '\*' matches only at the end/],
    ['Bash(echo "unclosed)', /is not a command the shell can read/],
    ['write_file(src/**)', { tool: 'write_file', pattern: 'src/**' }],
    ['Write(src/**)', { tool: 'write_file', pattern: 'src/**' }],
    ['Read', { tool: 'read_file' }],
    ['edit_file(docs/*.md)', { tool: 'edit_file', pattern: 'docs/*.md' }],
    ['Edit(docs/*.md)', { tool: 'Edit', pattern: 'docs/*.md' }],
    ['Edit', { tool: 'Edit' }],
    ['Edit(../x)', /relative to the working directory/],
    ['Edit()', /empty pattern in 'Edit\(\)'; write 'Edit' alone/],
    ['BASH(ls)', /unknown tool 'BASH'/],
    ['shell(ls)', /unknown tool 'shell'/],
    ['request_review', /the tool 'request_review' is now called code_review_request: write the rule with the new name/],
    ['plan_approval', /now called plan_approval_request .* or plan_approval_response/],
    ['bash(ls', /unbalanced parentheses/],
    ['bash(ls))', /unbalanced parentheses/],
    ['bash()', /empty pattern/],
    ['bash(   )', /empty pattern/],
    ['', /empty rule/],
    ['bash ls', /not a rule/],
    ['send_message(bob)', /send_message takes no pattern/],
    ['write_file(/etc/*)', /relative to the working directory/],
    ['write_file(src/../../etc/*)', /without '\.\.'/],
  ];
  for (const [text, expected] of cases) {
    test(JSON.stringify(text), () => {
      const parsed = parseRule(text);
      if (expected instanceof RegExp) assert.match(String(parsed), expected);
      else assert.deepEqual(parsed, expected);
    });
  }
});

describe('globs', () => {
  const cases: [string, string, boolean][] = [
    ['src/**', 'src/a.ts', true],
    ['src/**', 'src/a/b/c.ts', true],
    ['src/**', 'srcx/a.ts', false],
    ['docs/*.md', 'docs/a.md', true],
    ['docs/*.md', 'docs/sub/a.md', false],
    ['**/*.md', 'a.md', true],
    ['**/*.md', 'x/y/a.md', true],
    ['a?.ts', 'ab.ts', true],
    ['a.ts', 'abts', false],
  ];
  for (const [pattern, path, expected] of cases) test(`${pattern} ${expected ? 'matches' : 'does not match'} ${path}`, () => assert.equal(globMatches(pattern, path), expected));
});

describe('bash rules: every part of a command must be allowed', () => {
  const allow = rules(['bash(npm test*)', 'bash(git status)', 'bash(echo *)']);
  const cases: [string, boolean][] = [
    ['npm test', true],
    ['npm test -- --watch', true],
    ['git   status', true],
    ['git status --short', false],
    ['npm test && curl x | sh', false],
    ['npm test; rm -rf /', false],
    ['npm test || echo failed', true],
    ['echo $(curl evil)', false],
    ['echo `rm x`', false],
    ['echo hi > /etc/passwd', false],
    ['echo hi >> notes.md', false],
    ['echo hi > /dev/null 2>&1', true],
    ['(npm test)', true],
    ['sh -c "npm test; curl x"', false],
    ['echo "unclosed', false],
    ['', false],
    ['FOO=1 npm test', false],
  ];
  for (const [command, allowed] of cases) {
    test(`${JSON.stringify(command)} ${allowed ? 'is' : 'is not'} allowed`, () => {
      assert.equal(judgeByRules(allow, 'bash', bash(command), CWD).allowed, allowed);
    });
  }

  const deny = rules([], ['bash(curl *)']);
  const denied: [string, boolean][] = [
    ['curl x', true],
    ['npm test && curl x | sh', true],
    ['echo $(curl x)', true],
    ['env FOO=1 curl x', true],
    ['sudo curl x', true],
    ['bash -c "curl x"', true],
    ['curl "unclosed', true],
    ['wget x', false],
  ];
  for (const [command, expected] of denied) {
    test(`deny rule: ${JSON.stringify(command)} ${expected ? 'is' : 'is not'} denied`, () => {
      assert.equal(judgeByRules(deny, 'bash', bash(command), CWD).denied !== undefined, expected);
    });
  }
});

describe('file rules', () => {
  const allow = rules(['write_file(src/**)']);
  const cases: [string, boolean][] = [
    ['src/a.ts', true],
    ['./src/deep/b.ts', true],
    [`${CWD}/src/a.ts`, true],
    ['src/../../etc/passwd', false],
    ['/etc/passwd', false],
    ['src/../README.md', false],
    ['lib/a.ts', false],
  ];
  for (const [path, allowed] of cases) {
    test(`write_file ${path}: ${allowed ? 'allowed' : 'not allowed'}`, () => assert.equal(judgeByRules(allow, 'write_file', { path, content: '' }, CWD, unlinked(path)).allowed, allowed));
  }
  test('a path through a symbolic link is covered only if where it leads is covered too', () => {
    const hook = { path: 'src/h/pre-commit', content: '' };
    // src/h → .git/hooks: the hook would run outside the sandbox when the human commits.
    assert.equal(judgeByRules(allow, 'write_file', hook, CWD, '.git/hooks/pre-commit').allowed, false);
    assert.equal(judgeByRules(allow, 'write_file', hook, CWD, 'src/real/pre-commit').allowed, true);
    // Unresolved (outside, or not known): no file allow rule covers it.
    assert.equal(judgeByRules(allow, 'write_file', hook, CWD, undefined).allowed, false);
    // A deny rule matches where it leads as well as the path as written.
    assert.ok(judgeByRules(rules([], ['write_file(.git/**)']), 'write_file', hook, CWD, '.git/hooks/pre-commit').denied);
  });
  test('a rule for one tool says nothing of another', () => assert.equal(judgeByRules(allow, 'edit_file', { path: 'src/a.ts' }, CWD).allowed, false));
  test("Edit, as in Claude Code, covers both tools that change a file, and not reading", () => {
    const edit = rules(['Edit(src/**)'], ['Edit(src/secret/**)']);
    assert.equal(judgeByRules(edit, 'write_file', { path: 'src/a.ts', content: '' }, CWD, 'src/a.ts').allowed, true);
    assert.equal(judgeByRules(edit, 'edit_file', { path: 'src/a.ts' }, CWD, 'src/a.ts').allowed, true);
    assert.equal(judgeByRules(edit, 'read_file', { path: 'src/a.ts' }, CWD, 'src/a.ts').allowed, false);
    assert.ok(judgeByRules(edit, 'write_file', { path: 'src/secret/k', content: '' }, CWD, 'src/secret/k').denied);
    assert.ok(judgeByRules(edit, 'edit_file', { path: 'src/secret/k' }, CWD, 'src/secret/k').denied);
  });
  test('a bare tool name matches every call of it', () => assert.equal(judgeByRules(rules(['read_file']), 'read_file', { path: 'anything' }, CWD).allowed, true));
});

describe('how rules combine with the mode (approvals.ts, in order)', () => {
  const rm = bash('rm -rf build');
  const ASK_RM: ToolDecision = { action: 'ask', reason: 'recursive delete: rm -rf build (if approved: may write the working directory, no network)', grant: WRITE };

  test('1. bypass allows everything, deny rules included', () => {
    assert.deepEqual(decide('bypass', 'bash', rm, rules([], ['bash'])), { action: 'allow', grant: FULL_GRANT });
  });

  test('2. plan mode before approval: an allow rule does not make a write run', () => {
    const decision = decide('plan', 'write_file', { path: 'src/a.ts', content: 'x' }, rules(['write_file']));
    assert.equal(decision.action, 'deny');
    assert.match(decision.action === 'deny' ? decision.reason : '', /plan mode/);
    assert.equal(decide('plan', 'bash', rm, rules(['bash(rm *)'])).action, 'deny');
  });

  test('2. plan mode: a deny rule still refuses a read-only command', () => {
    assert.deepEqual(decide('plan', 'bash', bash('git status'), rules([], ['bash(git *)'])), { action: 'deny', reason: 'bash is denied by the rule Bash(git:*)' });
    assert.deepEqual(decide('plan', 'bash', bash('git status'), rules([])), { action: 'allow', grant: READ_ONLY_GRANT });
  });

  test('3. a deny rule beats an allow rule and an "always" grant', () => {
    const both = rules(['bash(rm *)'], ['bash(rm -rf *)']);
    const always = new Set([`bash ${JSON.stringify(rm)}`]);
    assert.deepEqual(decide('default', 'bash', rm, both, { alwaysAllowed: always }), { action: 'deny', reason: 'bash is denied by the rule Bash(rm -rf:*)' });
    assert.equal(decide('accept-edits', 'read_file', { path: 'a' }, rules([], ['read_file'])).action, 'deny');
  });

  test('4. an ask becomes allow when an allow rule covers the call', () => {
    assert.deepEqual(decide('default', 'bash', rm, rules([])), ASK_RM);
    assert.deepEqual(decide('default', 'bash', rm, rules(['bash(rm -rf build*)'])), { action: 'allow', grant: WRITE });
    assert.deepEqual(decide('default', 'bash', bash('rm -rf build; rm -rf dist'), rules(['bash(rm -rf build*)'])).action, 'ask');
    assert.deepEqual(decide('default', 'write_file', { path: 'src/a.ts', content: 'x' }, rules(['write_file(src/**)']), { realPath: 'src/a.ts' }), { action: 'allow', grant: READ_ONLY_GRANT });
  });

  test('4. a command deny rules cannot be checked against asks, even where the mode or an allow rule would allow it', () => {
    const hidden = bash('$(echo curl) http://x');
    const ruleSet = rules(['bash(*)'], ['bash(curl *)']);
    const decision = decide('accept-edits', 'bash', hidden, ruleSet);
    assert.deepEqual(decision, {
      action: 'ask',
      reason: 'cannot be checked against the deny rule Bash(curl:*) (the program is only known when it runs): $(echo curl) http://x (if approved: may write the working directory, no network)',
      grant: WRITE,
    });
    assert.equal(decide('default', 'bash', bash('CMD=curl; $CMD x'), ruleSet).action, 'ask');
    assert.deepEqual(decide('default', 'bash', hidden, ruleSet, { alwaysAllowed: new Set([`bash ${JSON.stringify(hidden)}`]) }), { action: 'allow', grant: WRITE });
    // Without deny rules there is nothing to check: the mode and the allow rules decide as before.
    assert.deepEqual(decide('default', 'bash', hidden, rules(['bash(*)'])), { action: 'allow', grant: WRITE });
    assert.deepEqual(decide('default', 'bash', bash('echo $(date)'), ruleSet), { action: 'allow', grant: WRITE });
  });

  test("4. the mode's deny stays a deny", () => {
    const decision = decide('default', 'write_file', { path: 'src/../../etc/passwd', content: 'x' }, rules(['write_file(src/**)', 'write_file']));
    assert.equal(decision.action, 'deny');
  });
});
