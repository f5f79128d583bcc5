import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { alwaysKey, decideToolUse, type ToolUse } from '../../src/policy/approvals.js';
import { parseRule, showRule, type PermissionRules } from '../../src/policy/rules.js';
import { mcpToolName, parseMcpName } from '../../src/policy/mcp-names.js';
import { FULL_GRANT, READ_ONLY_GRANT } from '../../src/policy/grant.js';
import type { PermissionMode } from '../../src/protocol/messages.js';

const CWD = '/w/proj';
const rules = (allow: string[], deny: string[] = [], ask: string[] = []): PermissionRules => {
  const parse = (text: string) => {
    const rule = parseRule(text);
    assert.notEqual(typeof rule, 'string', `${text}: ${String(rule)}`);
    return rule as Exclude<ReturnType<typeof parseRule>, string>;
  };
  return { allow: allow.map(parse), deny: deny.map(parse), ask: ask.map(parse), network: [] };
};
const decide = (mode: PermissionMode, tool: string, extra: Partial<ToolUse> = {}) =>
  decideToolUse({ tool, input: { text: 'hi' }, mode, cwd: CWD, planApproved: false, alwaysAllowed: new Set(), ...extra });

describe('MCP tool names', () => {
  test('mcp__<server>__<tool>, read back into server and tool', () => {
    assert.deepEqual(mcpToolName('git', 'status'), { ok: true, name: 'mcp__git__status' });
    assert.deepEqual(parseMcpName('mcp__git__status'), { server: 'git', tool: 'status' });
    assert.deepEqual(parseMcpName('mcp__my-srv_2__read__file'), { server: 'my-srv_2', tool: 'read__file' });
    assert.deepEqual(parseMcpName('mcp__git'), { server: 'git' });
    assert.equal(parseMcpName('bash'), undefined);
  });

  test('a name the model API or the rules could not carry is refused, saying why', () => {
    assert.match(String((mcpToolName('git', 'has space') as { error: string }).error), /may hold only/);
    assert.match(String((mcpToolName('a__b', 'x') as { error: string }).error), /single '_'/);
    assert.match(String((mcpToolName('git', 'x'.repeat(60)) as { error: string }).error), /longer than 64/);
  });
});

describe('rules naming MCP tools, as Claude Code writes them', () => {
  test('mcp__server and mcp__server__tool parse and show as written; a pattern does not', () => {
    assert.equal(showRule(parseRule('mcp__git') as never), 'mcp__git');
    assert.equal(showRule(parseRule('mcp__git__status') as never), 'mcp__git__status');
    assert.match(String(parseRule('mcp__git(status)')), /not an MCP rule/);
    assert.match(String(parseRule('mcp__')), /not an MCP rule/);
  });

  test('an MCP tool asks by default, in default and accept-edits modes, naming its server', () => {
    for (const mode of ['default', 'accept-edits'] as const) {
      const decision = decide(mode, 'mcp__git__status');
      assert.equal(decision.action, 'ask');
      assert.match((decision as { reason: string }).reason, /the tool 'status' of the MCP server 'git'/);
      assert.deepEqual((decision as { grant: unknown }).grant, READ_ONLY_GRANT);
    }
  });

  test('an allow rule for the tool or its whole server lets it run; another server or tool still asks', () => {
    assert.deepEqual(decide('default', 'mcp__git__status', { rules: rules(['mcp__git__status']) }), { action: 'allow', grant: READ_ONLY_GRANT });
    assert.deepEqual(decide('default', 'mcp__git__commit', { rules: rules(['mcp__git']) }), { action: 'allow', grant: READ_ONLY_GRANT });
    assert.equal(decide('default', 'mcp__git__commit', { rules: rules(['mcp__git__status']) }).action, 'ask');
    assert.equal(decide('default', 'mcp__gitx__status', { rules: rules(['mcp__git']) }).action, 'ask');
  });

  test('a deny rule refuses, over allow rules and "always"', () => {
    const always = new Set([alwaysKey('mcp__git__push', { text: 'hi' })]);
    const denied = decide('default', 'mcp__git__push', { rules: rules(['mcp__git'], ['mcp__git__push']), alwaysAllowed: always });
    assert.deepEqual(denied, { action: 'deny', reason: 'mcp__git__push is denied by the rule mcp__git__push' });
    assert.equal(decide('default', 'mcp__git__status', { rules: rules([], ['mcp__git']) }).action, 'deny');
  });

  test('an ask rule for the server asks, over an allow rule for the tool', () => {
    const decision = decide('default', 'mcp__git__status', { rules: rules(['mcp__git__status'], [], ['mcp__git']) });
    assert.equal(decision.action, 'ask');
    assert.match((decision as { reason: string }).reason, /the rule mcp__git asks first/);
  });

  test('approved "always", the same call runs unasked', () => {
    const always = new Set([alwaysKey('mcp__git__status', { text: 'hi' })]);
    assert.equal(decide('default', 'mcp__git__status', { alwaysAllowed: always }).action, 'allow');
  });

  test('plan mode refuses it until the plan is approved; bypass runs it', () => {
    assert.equal(decide('plan', 'mcp__git__status', { rules: rules(['mcp__git']) }).action, 'deny');
    assert.deepEqual(decide('bypass', 'mcp__git__status'), { action: 'allow', grant: FULL_GRANT });
  });
});
