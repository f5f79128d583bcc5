import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScript, parseScript, ScriptError, type Script } from '../../src/offline/script.js';
import { matchScript, offlineToolUseId, parseAgent, type ModelRequest, type Match } from '../../src/offline/match.js';
import { tempHome } from '../helpers/temp.js';

const CODER = "You are 'alice', role: coder, a member of team 'demo'. Work carefully.";

function refused(value: unknown): string {
  assert.throws(() => parseScript(value), ScriptError);
  try {
    parseScript(value);
  } catch (error) {
    return (error as Error).message;
  }
  return '';
}

function rules(...list: unknown[]): unknown {
  return { version: 1, rules: list };
}

function convo(last: string, overrides: Partial<ModelRequest> = {}): ModelRequest {
  return { system: 'You lead the team.', messages: [{ role: 'user', content: last }], tools: [], ...overrides };
}

function reply(match: Match) {
  assert.equal(match.reply.kind, 'reply');
  return match.reply.kind === 'reply' ? match.reply : assert.fail('not a reply');
}

describe('script format: invalid scripts name the field', () => {
  test('a rule without a reply', () => {
    assert.match(refused(rules({ when: {} })), /rules\.0\.reply: /);
  });

  test('an invalid regular expression', () => {
    assert.match(refused(rules({ when: { last: '(' }, reply: { text: 'x' } })), /rules\.0\.when\.last: invalid regular expression/);
  });

  test('a misspelt key is refused, not ignored', () => {
    assert.match(refused(rules({ reply: { tool_use: [] } })), /rules\.0\.reply: Unrecognized key.*tool_use/);
  });

  test('a placeholder for a capture group the pattern lacks', () => {
    const message = refused(
      rules({
        when: { last: '\\[shutdown_request (?<id>\\S+)' },
        reply: { tool_uses: [{ name: 'shutdown_response', input: { request_id: '{{last.request_id}}' } }] },
      }),
    );
    assert.match(message, /rules\.0\.reply\.tool_uses\.0\.input\.request_id: \{\{last\.request_id\}\}: when\.last has no capture group 'request_id'/);
  });

  test('a capture placeholder without any pattern, and an unknown placeholder', () => {
    assert.match(refused(rules({ reply: { text: '{{last.1}}' } })), /rules\.0\.reply\.text: .*needs a when\.last pattern/);
    assert.match(refused(rules({ reply: { text: 'hi {{user}}' } })), /rules\.0\.reply\.text: unknown placeholder \{\{user\}\}/);
  });

  test('an error reply with content, an empty reply, a wrong version, bad flags', () => {
    assert.match(refused(rules({ reply: { text: 'x', error: { status: 529 } } })), /rules\.0\.reply: an error reply cannot also have/);
    assert.match(refused(rules({ reply: {} })), /rules\.0\.reply: a reply needs text, tool_uses or error/);
    assert.match(refused({ version: 2, rules: [] }), /version: /);
    assert.match(refused(rules({ when: { last: { pattern: 'a', flags: 'g' } }, reply: { text: 'x' } })), /rules\.0\.when\.last\.flags/);
  });

  describe('files', () => {
    const { home, cleanup } = tempHome('teams-script-');
    after(cleanup);

    test('a file that is not JSON', () => {
      const path = join(home, 'broken.json');
      writeFileSync(path, '{ "version": 1, ');
      assert.throws(() => loadScript(path), (error: Error) => error instanceof ScriptError && error.message.includes(`${path} is not valid JSON`));
    });

    test('a missing file', () => {
      assert.throws(() => loadScript(join(home, 'nope.json')), /cannot read offline script/);
    });

    test('an invalid file names itself and the field', () => {
      const path = join(home, 'invalid.json');
      writeFileSync(path, JSON.stringify(rules({ when: { turn: 0 }, reply: { text: 'x' } })));
      assert.throws(() => loadScript(path), (error: Error) => error.message.startsWith(`${path} is not a valid offline script: rules.0.when.turn`));
    });
  });
});

describe('matcher', () => {
  const never = () => 0;

  test('identifies the lead and teammates from the system prompt', () => {
    assert.deepEqual(parseAgent(CODER), { kind: 'teammate', name: 'alice', role: 'coder', team: 'demo' });
    assert.equal(parseAgent('You are the lead of team demo.').kind, 'lead');
  });

  test('the first matching rule wins; captures fill templates, numbered and named', () => {
    const script = parseScript(
      rules(
        { when: { agent: 'teammate' }, reply: { text: 'teammate rule' } },
        { when: { last: '(\\w+) wants (?<thing>\\w+)' }, reply: { text: '{{last.1}} gets {{last.thing}} on turn {{turn}}' } },
        { reply: { text: 'catch-all' } },
      ),
    );
    assert.equal(reply(matchScript(script, convo('bob wants tea'), never)).text, 'bob gets tea on turn 1');
    assert.equal(matchScript(script, convo('bob wants tea'), never).rule, 1);
    assert.equal(reply(matchScript(script, convo('bob wants tea', { system: CODER }), never)).text, 'teammate rule');
    assert.equal(reply(matchScript(script, convo('nothing'), never)).text, 'catch-all');
  });

  test('templates render inside tool input, keeping non-string values typed', () => {
    const script = parseScript(
      rules({
        when: { system: "^You are '(?<who>[^']+)'" },
        reply: { tool_uses: [{ name: 'note', input: { by: '{{system.who}}', as: '{{agent.role}}', task: '{{first}}', n: 3, ok: true } }] },
      }),
    );
    const messages: ModelRequest['messages'] = [
      { role: 'user', content: 'the task' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'go on' },
    ];
    const got = reply(matchScript(script, { system: CODER, messages, tools: ['note'] }, never));
    assert.deepEqual(got.toolUses, [{ id: offlineToolUseId('the task', 2, 1), name: 'note', input: { by: 'alice', as: 'coder', task: 'the task', n: 3, ok: true } }]);
  });

  test('captures of when.first fill {{first.<group>}}: a teammate quotes the task id its first message gave', () => {
    const script = parseScript(
      rules({
        when: { first: '\\[task_assignment (?<id>[0-9]+) from lead\\]' },
        reply: { tool_uses: [{ name: 'task_update', input: { task_id: '{{first.id}}', status: 'completed' } }] },
      }),
    );
    const messages: ModelRequest['messages'] = [
      { role: 'user', content: '[task_assignment 7 from lead] New task "x"' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'done?' },
    ];
    assert.deepEqual(reply(matchScript(script, { system: CODER, messages, tools: ['task_update'] }, never)).toolUses[0]?.input, { task_id: '7', status: 'completed' });
    assert.throws(() => parseScript(rules({ reply: { text: '{{first.id}}' } })), /needs a when\.first pattern with a group 'id'/);
  });

  test('tool call ids are stable, and differ once a compaction started the conversation over at a lower turn', () => {
    assert.match(offlineToolUseId('the task', 2, 1), /^toolu_offline_2_1_[0-9a-f]{8}$/);
    assert.equal(offlineToolUseId('the task', 2, 1), offlineToolUseId('the task', 2, 1));
    const summary = '[Summary of earlier work. The task was started.]';
    assert.notEqual(offlineToolUseId(summary, 2, 1), offlineToolUseId('the task', 2, 1));
  });

  test('selectors: agent name, role, turn, after_tool; tools must have been offered', () => {
    const script = parseScript(
      rules(
        { when: { agent: 'bob' }, reply: { text: 'bob' } },
        { when: { role: 'tester' }, reply: { text: 'tester' } },
        { when: { turn: 2, after_tool: 'bash' }, reply: { text: 'after bash' } },
        { when: { turn: 1 }, reply: { tool_uses: [{ name: 'bash', input: { command: 'ls' } }] } },
      ),
    );
    // Rule 3 calls bash, which was not offered: it cannot fire, so the fallback answers.
    assert.equal(matchScript(script, convo('hi', { system: CODER }), never).rule, undefined);
    assert.equal(matchScript(script, convo('hi', { system: CODER, tools: ['bash'] }), never).rule, 3);
    assert.equal(reply(matchScript(script, convo('hi', { system: CODER.replace('coder', 'tester') }), never)).text, 'tester');
    const afterBash: ModelRequest = {
      system: CODER,
      tools: ['bash'],
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'done' }] }] },
      ],
    };
    assert.equal(reply(matchScript(script, afterBash, never)).text, 'after bash');
  });

  test('`last` searches text and tool_result content of the last user message', () => {
    const script = parseScript(rules({ when: { last: 'exit (?<code>\\d+)' }, reply: { text: 'code {{last.code}}' } }));
    const conversation: ModelRequest = {
      system: '',
      tools: [],
      messages: [
        { role: 'user', content: 'exit 9' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'exit 0' }, { type: 'text', text: 'more' }] },
      ],
    };
    assert.equal(reply(matchScript(script, conversation, never)).text, 'code 0');
  });

  test('times limits a rule; errors get a default type and message', () => {
    const script: Script = parseScript(
      rules({ times: 1, reply: { error: { status: 529, retry_after_ms: 5 } } }, { reply: { text: 'fine' } }),
    );
    const first = matchScript(script, convo('x'), never);
    assert.deepEqual(first.reply, {
      kind: 'error',
      status: 529,
      type: 'overloaded_error',
      message: 'Offline script injected 529 overloaded_error.',
      retryAfterMs: 5,
      inStream: false,
    });
    assert.equal(reply(matchScript(script, convo('x'), () => 1)).text, 'fine');
  });

  test('the fallback says there is no rule, names the agent and turn, and ends the turn', () => {
    const got = matchScript(parseScript(rules()), convo('something   unscripted\nhere', { system: CODER }), never);
    assert.equal(got.rule, undefined);
    const fallback = reply(got);
    assert.deepEqual(fallback.toolUses, []);
    assert.match(fallback.text ?? '', /^The offline script has no rule for this \(agent alice, turn 1: "something unscripted here"\)/);
  });
});
