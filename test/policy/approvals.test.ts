import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { alwaysKey, decideToolUse, type ToolDecision, type ToolUse } from '../../src/policy/approvals.js';
import { PERMISSION_MODES, type PermissionMode } from '../../src/protocol/messages.js';
import { isReadOnlyTool, TOOL_CLASSES, toolClass } from '../../src/policy/tool-classes.js';
import { FULL_GRANT, READ_ONLY_GRANT } from '../../src/policy/grant.js';

const CWD = '/w/proj';
/** Unasked: whatever the tool, a command it runs gets neither write nor network. */
const ALLOW: ToolDecision = { action: 'allow', grant: READ_ONLY_GRANT };
/** What an approved command runs with, unless it asked for the network too. */
const WRITE = { write: true, network: false };
const PLAN_DENIAL = (what: string): ToolDecision => ({
  action: 'deny',
  reason: `plan mode: ${what} is not allowed until your plan is approved. Only read-only tools and read-only commands run now; submit your plan with plan_approval_request first.`,
});

function decide(mode: PermissionMode, tool: string, input: unknown, extra: Partial<ToolUse> = {}): ToolDecision {
  return decideToolUse({ tool, input, mode, cwd: CWD, planApproved: false, alwaysAllowed: new Set(), ...extra });
}

/** One call per tool class; expected decisions per mode below. */
const CALLS = {
  read: ['read_file', { path: 'src/a.ts' }],
  listing: ['list_teammates', {}],
  message: ['send_message', { to: 'alice', content: 'hi' }],
  protocol: ['plan_approval_request', { plan: 'do x' }],
  spawnPlanning: ['spawn_teammate', { name: 'bob', role: 'r', prompt: 'p', plan_mode: 'true' }],
  spawn: ['spawn_teammate', { name: 'bob', role: 'r', prompt: 'p' }],
  write: ['write_file', { path: 'src/a.ts', content: 'a\nb\n' }],
  edit: ['edit_file', { path: 'src/a.ts', old_text: 'a', new_text: 'b' }],
  writeOutside: ['write_file', { path: '../x.ts', content: '' }],
  readOnlyBash: ['bash', { command: 'git status' }],
  bash: ['bash', { command: 'npm test' }],
  dangerousBash: ['bash', { command: 'rm -rf build' }],
  unknown: ['mystery_tool', {}],
} as const satisfies Record<string, [string, unknown]>;
type Call = keyof typeof CALLS;

const ASK_WRITE: ToolDecision = { action: 'ask', reason: 'write src/a.ts (2 lines)', grant: READ_ONLY_GRANT };
const ASK_EDIT: ToolDecision = { action: 'ask', reason: 'edit src/a.ts', grant: READ_ONLY_GRANT };
const ASK_RM: ToolDecision = { action: 'ask', reason: 'recursive delete: rm -rf build (if approved: may write the working directory, no network)', grant: WRITE };
const ASK_UNKNOWN: ToolDecision = { action: 'ask', reason: "unknown tool 'mystery_tool'", grant: READ_ONLY_GRANT };
const OUTSIDE: ToolDecision = { action: 'deny', reason: "path '../x.ts' is outside the working directory /w/proj; file tools only work inside it" };

const EXPECTED: Record<PermissionMode, Record<Call, ToolDecision>> = {
  plan: {
    read: ALLOW,
    listing: ALLOW,
    message: ALLOW,
    protocol: ALLOW,
    spawnPlanning: ALLOW,
    spawn: PLAN_DENIAL('spawn_teammate without plan_mode: true'),
    write: PLAN_DENIAL('write_file (it changes files)'),
    edit: PLAN_DENIAL('edit_file (it changes files)'),
    writeOutside: PLAN_DENIAL('write_file (it changes files)'),
    readOnlyBash: ALLOW,
    bash: PLAN_DENIAL('`npm test` (not a read-only command)'),
    dangerousBash: PLAN_DENIAL('`rm -rf build` (not a read-only command)'),
    unknown: PLAN_DENIAL('mystery_tool'),
  },
  default: {
    read: ALLOW,
    listing: ALLOW,
    message: ALLOW,
    protocol: ALLOW,
    spawnPlanning: ALLOW,
    spawn: ALLOW,
    write: ASK_WRITE,
    edit: ASK_EDIT,
    writeOutside: OUTSIDE,
    readOnlyBash: ALLOW,
    bash: ALLOW,
    dangerousBash: ASK_RM,
    unknown: ASK_UNKNOWN,
  },
  'accept-edits': {
    read: ALLOW,
    listing: ALLOW,
    message: ALLOW,
    protocol: ALLOW,
    spawnPlanning: ALLOW,
    spawn: ALLOW,
    write: ALLOW,
    edit: ALLOW,
    writeOutside: OUTSIDE,
    readOnlyBash: ALLOW,
    bash: ALLOW,
    dangerousBash: ASK_RM,
    unknown: ASK_UNKNOWN,
  },
  bypass: Object.fromEntries(Object.keys(CALLS).map((call) => [call, { action: 'allow', grant: FULL_GRANT }])) as Record<Call, ToolDecision>,
};

describe('decideToolUse: every mode × tool class', () => {
  for (const mode of PERMISSION_MODES) {
    for (const call of Object.keys(CALLS) as Call[]) {
      test(`${mode} / ${call}`, () => {
        const [tool, input] = CALLS[call];
        assert.deepEqual(decide(mode, tool, input), EXPECTED[mode][call]);
      });
    }
  }
});

describe('decideToolUse: plan approval, "always" answers and odd input', () => {
  test('once the plan is approved, plan mode decides as default does', () => {
    for (const call of Object.keys(CALLS) as Call[]) {
      const [tool, input] = CALLS[call];
      assert.deepEqual(decide('plan', tool, input, { planApproved: true }), EXPECTED.default[call], call);
    }
  });

  test('a command approved "always" runs without asking, but only that exact command', () => {
    const alwaysAllowed = new Set([alwaysKey('bash', { command: 'rm -rf build' })]);
    assert.deepEqual(decide('default', 'bash', { command: 'rm -rf build' }, { alwaysAllowed }), { action: 'allow', grant: WRITE });
    assert.deepEqual(decide('accept-edits', 'bash', { command: 'rm -rf build' }, { alwaysAllowed }), { action: 'allow', grant: WRITE });
    assert.deepEqual(decide('default', 'bash', { command: 'rm -rf  build' }, { alwaysAllowed }), ASK_RM);
    assert.equal(decide('default', 'bash', { command: 'rm -rf build', timeout_ms: 5 }, { alwaysAllowed }).action, 'ask', 'other input is another call');
  });

  test('a write approved "always" is allowed again, with the same content only', () => {
    const input = { path: 'notes.md', content: 'x\n' };
    const alwaysAllowed = new Set([alwaysKey('write_file', input)]);
    assert.deepEqual(decide('default', 'write_file', input, { alwaysAllowed }), ALLOW);
    assert.equal(decide('default', 'write_file', { ...input, content: 'y\n' }, { alwaysAllowed }).action, 'ask');
  });

  test('"always" never lifts a refusal: plan mode, or a path outside the working directory', () => {
    const denied = decide('plan', 'bash', { command: 'npm install' }, { alwaysAllowed: new Set([alwaysKey('bash', { command: 'npm install' })]) });
    assert.equal(denied.action, 'deny');
    const outside = { path: '/etc/passwd', content: 'x' };
    assert.equal(decide('default', 'write_file', outside, { alwaysAllowed: new Set([alwaysKey('write_file', outside)]) }).action, 'deny');
  });

  test('several dangers are all named', () => {
    assert.deepEqual(decide('default', 'bash', { command: 'sudo rm -rf /opt/x' }), {
      action: 'ask',
      grant: WRITE,
      reason: 'runs as another user (sudo): sudo rm -rf /opt/x; recursive delete: sudo rm -rf /opt/x; delete outside the working directory: sudo rm -rf /opt/x (if approved: may write the working directory, no network)',
    });
  });

  test('home lets ~ inside the working directory through', () => {
    assert.deepEqual(decideToolUse({ tool: 'bash', input: { command: 'touch ~/proj/x' }, mode: 'default', cwd: '/home/u/proj', home: '/home/u', planApproved: false, alwaysAllowed: new Set() }), ALLOW);
  });

  test('a write says how many lines it writes', () => {
    for (const [content, lines] of [['', '0 lines'], ['x', '1 line'], ['x\n', '1 line'], ['x\n\ny', '3 lines']] as const) {
      assert.deepEqual(decide('default', 'write_file', { path: 'a', content }), { action: 'ask', reason: `write a (${lines})`, grant: READ_ONLY_GRANT });
    }
  });

  test('an absolute path inside the working directory is an ordinary edit', () => {
    assert.deepEqual(decide('accept-edits', 'edit_file', { path: '/w/proj/src/a.ts', old_text: 'a', new_text: 'b' }), ALLOW);
    assert.deepEqual(decide('accept-edits', 'write_file', { path: '/etc/passwd', content: '' }).action, 'deny');
  });

  test('input the policy cannot read is left for the tool to refuse, which it does before running anything', () => {
    assert.deepEqual(decide('default', 'bash', { cmd: 'rm -rf /' }), ALLOW);
    assert.deepEqual(decide('default', 'write_file', { file: 'x' }), ALLOW);
    assert.deepEqual(decide('plan', 'bash', 'rm -rf /'), ALLOW);
  });
});

describe('tool classes', () => {
  test('reading, messaging and the protocols are read-only; shell, edits and spawning are not', () => {
    const readOnly = Object.keys(TOOL_CLASSES).filter(isReadOnlyTool).sort();
    assert.deepEqual(readOnly, ['broadcast', 'code_review_request', 'code_review_response', 'finish_request', 'list_teammates', 'plan_approval_request', 'plan_approval_response', 'read_file', 'send_message', 'shutdown_request', 'shutdown_response', 'shutdown_status', 'task_claim', 'task_create', 'task_list', 'task_update']);
    assert.equal(isReadOnlyTool('bash'), false);
    assert.equal(isReadOnlyTool('nope'), false);
    assert.equal(toolClass('toString'), undefined);
  });

  test("a former tool name (a resumed model may call one) is refused with its new name, asking no one, in every mode but bypass", () => {
    for (const mode of ['plan', 'default', 'accept-edits'] as const) {
      assert.deepEqual(decide(mode, 'request_shutdown', { summary: 'done' }), { action: 'deny', reason: "the tool 'request_shutdown' is now called finish_request; call that instead" });
      const plan = decide(mode, 'plan_approval', { plan: 'x' });
      assert.equal(plan.action, 'deny');
      assert.match(plan.action === 'deny' ? plan.reason : '', /now called plan_approval_request \(a teammate submitting its plan\) or plan_approval_response/);
    }
  });
});

describe('decideToolUse: what a command may do when it runs (its grant)', () => {
  const ONLINE = { write: true, network: true };
  test('asking for write or network asks, even for a command the parser calls harmless, and says what a yes grants', () => {
    assert.deepEqual(decide('default', 'bash', { command: 'npm test', write: true }), {
      action: 'ask',
      reason: '`npm test` asks to write the working directory (if approved: may write the working directory, no network)',
      grant: WRITE,
    });
    assert.deepEqual(decide('accept-edits', 'bash', { command: 'npm ci', write: true, network: 'true' }), {
      action: 'ask',
      reason: '`npm ci` asks to write the working directory and reach the network (if approved: may write the working directory, network on)',
      grant: ONLINE,
    });
  });

  test('plan mode refuses a command that asks for write or network, read-only as it may be', () => {
    assert.equal(decide('plan', 'bash', { command: 'git status', network: true }).action, 'deny');
    assert.deepEqual(decide('plan', 'bash', { command: 'git status' }), ALLOW);
  });

  test('an allow rule lets a command write; the network only with a network rule too', () => {
    const rules = { allow: [{ tool: 'bash' as const, pattern: 'npm ci' }], deny: [], ask: [], network: [] };
    assert.deepEqual(decide('default', 'bash', { command: 'npm ci' }, { rules }), { action: 'allow', grant: WRITE });
    const online = decide('default', 'bash', { command: 'npm ci', network: true }, { rules });
    assert.equal(online.action, 'ask');
    assert.match(online.action === 'ask' ? online.reason : '', /no network rule/);
    const networked = { ...rules, network: rules.allow };
    assert.deepEqual(decide('default', 'bash', { command: 'npm ci', network: true }, { rules: networked }), { action: 'allow', grant: ONLINE });
    assert.deepEqual(decide('default', 'bash', { command: 'npm ci && curl x', network: true }, { rules: networked }).action, 'ask', 'every part must be covered');
  });

  test('"always" grants what the approved call asked for, and nothing more', () => {
    const call = { command: 'npm ci', network: true };
    assert.deepEqual(decide('default', 'bash', call, { alwaysAllowed: new Set([alwaysKey('bash', call)]) }), { action: 'allow', grant: ONLINE });
    assert.deepEqual(decide('default', 'bash', { command: 'npm ci' }, { alwaysAllowed: new Set([alwaysKey('bash', call)]) }), ALLOW);
  });
});
