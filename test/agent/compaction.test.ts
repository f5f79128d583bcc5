import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { buildReplacement, chooseCut, isContextOverflow, overflowLimit, savesEnough, skippedCompaction, SUMMARY_HEADER, STATE_HEADER, sizeOf, summaryRequest, thresholdDue, transcriptOf } from '../../src/agent/compaction.js';
import { ContextMeter } from '../../src/agent/context-meter.js';
import { ModelError } from '../../src/model/client.js';
import { capToolResult, MAX_TOOL_RESULT_CHARS } from '../../src/tools/capped-output.js';

const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const said = (text: string): MessageParam => ({ role: 'assistant', content: [{ type: 'text', text }] });
const calls = (id: string): MessageParam => ({ role: 'assistant', content: [{ type: 'text', text: `calling ${id}` }, { type: 'tool_use', id, name: 'bash', input: { command: `echo ${id}` } }] });
const result = (id: string, text = `output of ${id}`): MessageParam => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] });

function blocks(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/** What the Messages API would refuse in a conversation: the rules a compaction must keep. */
function apiProblems(messages: readonly MessageParam[]): string[] {
  const problems: string[] = [];
  if (messages[0]?.role !== 'user') problems.push('does not start with a user message');
  messages.forEach((message, i) => {
    if (i > 0 && messages[i - 1]?.role === message.role) problems.push(`${i}: two ${message.role} messages in a row`);
    const uses = new Set(blocks(messages[i - 1] ?? { role: 'user', content: [] }).flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])));
    for (const block of blocks(message)) {
      if (block.type === 'tool_result' && !uses.has(block.tool_use_id)) problems.push(`${i}: tool_result ${block.tool_use_id} without its tool_use`);
    }
    if (message.role === 'assistant') {
      const answered = new Set(blocks(messages[i + 1] ?? { role: 'user', content: [] }).flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])));
      for (const block of blocks(message)) if (block.type === 'tool_use' && i + 1 < messages.length && !answered.has(block.id)) problems.push(`${i}: tool_use ${block.id} without its tool_result`);
    }
  });
  return problems;
}

/** A teammate's long turn: its task, then one tool call after another. */
function longTurn(steps: number): MessageParam[] {
  const messages = [user('Your task: write the parser notes.')];
  for (let i = 1; i <= steps; i++) messages.push(calls(`t${i}`), result(`t${i}`, `step ${i} `.repeat(50)));
  return messages;
}

describe('compaction: where to cut', () => {
  test('in a long run of tool calls the tail starts at an assistant message, never at a lone tool_result', () => {
    const messages = longTurn(10);
    const cut = chooseCut(messages, sizeOf(messages.slice(-5)));
    assert.ok(cut !== undefined);
    assert.equal(messages[cut]?.role, 'assistant');
    assert.ok(cut > 1 && cut < messages.length - 1);
    assert.deepEqual(apiProblems(buildReplacement('summary', '', messages.slice(cut))), []);
  });

  test('the tail is the longest that fits the budget, and at least the latest turn when none fits', () => {
    const messages = longTurn(10);
    const roomy = chooseCut(messages, sizeOf(messages.slice(-4)));
    const tight = chooseCut(messages, sizeOf(messages.slice(-3)));
    assert.equal(roomy, messages.length - 4);
    assert.equal(tight, messages.length - 2, 'the budget holds three messages, but a tail cannot start at a tool_result');
    assert.equal(chooseCut(messages, 0), messages.length - 2, 'nothing fits: the last call and its result stay');
  });

  test('a plain user message can start the tail; the summary then joins it, so roles alternate', () => {
    const messages = [user('first task'), said('done'), user('second task'), calls('a'), result('a'), said('ok'), user('third task')];
    const cut = chooseCut(messages, sizeOf(messages.slice(-1)));
    assert.equal(cut, messages.length - 1);
    const replaced = buildReplacement('We did two tasks.', 'Teammates running: alice.', messages.slice(cut ?? 0));
    assert.equal(replaced.length, 1);
    const texts = blocks(replaced[0] as MessageParam).map((b) => (b.type === 'text' ? b.text : b.type));
    assert.equal(texts[1], 'third task');
    assert.ok(texts[0]?.startsWith(SUMMARY_HEADER));
    assert.match(texts[0] ?? '', /We did two tasks\.\n\n\[Protocol state now[^\n]*\n\nTeammates running: alice\./);
    assert.deepEqual(apiProblems(replaced), []);
  });

  test('nothing to cut: one message, or no valid start after the first', () => {
    assert.equal(chooseCut([user('hi')], 100), undefined);
    assert.equal(chooseCut([], 100), undefined);
  });

  test('every cut of every prefix of a long conversation leaves a conversation the API accepts', () => {
    const messages = [...longTurn(4), said('half way'), user('go on'), calls('x'), result('x'), calls('y'), result('y')];
    for (let end = 2; end <= messages.length; end++) {
      const prefix = messages.slice(0, end);
      for (const budget of [0, 200, 1000, 100_000]) {
        const cut = chooseCut(prefix, budget);
        if (cut === undefined) continue;
        assert.deepEqual(apiProblems(buildReplacement('s', 'state', prefix.slice(cut))), [], `prefix ${end}, budget ${budget}`);
      }
    }
  });
});

describe('compaction: what the summariser reads and what replaces the older turns', () => {
  test('a compaction must save a fifth: never a larger context, and after a skip the threshold waits for that much growth', () => {
    assert.equal(savesEnough(10_000, 8_000), true);
    assert.equal(savesEnough(10_000, 8_001), false);
    assert.equal(savesEnough(3_931, 4_040), false);
    assert.match(skippedCompaction(10_000, 9_000), /would save only 10%/);
    assert.match(skippedCompaction(3_931, 4_040), /would make the conversation 3% larger/);
    assert.equal(thresholdDue(false, 10_000, undefined), false);
    assert.equal(thresholdDue(true, 10_000, undefined), true);
    assert.equal(thresholdDue(true, 11_999, 10_000), false, 'not again over the same past');
    assert.equal(thresholdDue(true, 12_000, 10_000), true);
  });

  test('the transcript is text: words, tool calls and results, no tool blocks', () => {
    const text = transcriptOf([user('Write notes'), calls('a'), result('a', 'fine'), said('Done.')]);
    assert.equal(text, 'User: Write notes\nAgent: calling a\nAgent called bash {"command":"echo a"}\nTool result: fine\nAgent: Done.');
    assert.match(summaryRequest([user('x')], 3), /^\(The oldest 3 messages were too long to include and are left out\.\)\n<conversation>\nUser: x\n<\/conversation>/);
  });

  test('without protocol state the summary stands alone, marked', () => {
    const [first] = buildReplacement('  the summary  ', ' ', [calls('a'), result('a')]);
    assert.deepEqual(first, { role: 'user', content: [{ type: 'text', text: `${SUMMARY_HEADER}\n\nthe summary` }] });
    assert.ok(!JSON.stringify(first).includes(STATE_HEADER));
  });

  test('the API\'s context overflow is told apart from other refusals', () => {
    assert.equal(isContextOverflow(new ModelError('model request failed (400 invalid_request_error): prompt is too long: 31000 tokens > 30000 maximum', 400, 'invalid_request_error', false)), true);
    assert.equal(isContextOverflow(new ModelError('model request failed (400 invalid_request_error): messages: bad', 400, 'invalid_request_error', false)), false);
    assert.equal(isContextOverflow(new Error('prompt is too long')), false);
    assert.equal(overflowLimit(new ModelError('model request failed (400 invalid_request_error): prompt is too long: 31000 tokens > 30000 maximum', 400, 'invalid_request_error', false)), 30_000);
    assert.equal(overflowLimit(new ModelError('prompt is too long', 400, 'invalid_request_error', false)), undefined);
    const roomless = new ModelError('model request failed (400 invalid_request_error): input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again', 400, 'invalid_request_error', false);
    assert.equal(isContextOverflow(roomless), true);
    assert.equal(overflowLimit(roomless), 200_000);
  });
});

describe('context meter', () => {
  test('measured by the API, estimated in between, rescaled by a compaction', () => {
    const meter = new ContextMeter(10_000, 0.8, 4_000);
    assert.equal(meter.estimate(4_000), 2_000, 'before any call: all of it estimated');
    meter.measure({ input_tokens: 100, cache_read_tokens: 5_000, cache_write_tokens: 900, output_tokens: 300 }, 20_000);
    assert.equal(meter.estimate(20_000), 6_300);
    assert.equal(meter.estimate(28_000), 8_300, 'a tool result of 8,000 characters: 2,000 tokens more');
    assert.equal(meter.full(20_000), false);
    assert.equal(meter.full(28_000), true);
    meter.learnWindow(20_000);
    assert.equal(meter.window, 10_000, 'a larger limit changes nothing');
    const after = meter.compacted(28_000, 4_000);
    assert.equal(after, Math.ceil((8_300 * 8_000) / 32_000));
    assert.equal(meter.estimate(4_000), after);
    meter.learnWindow(5_000);
    assert.equal(meter.full(4_000 + 4 * (4_000 - after)), true, 'past 80% of the window the API named');
    meter.useWindow(200_000);
    assert.equal(meter.window, 200_000, "another model's window replaces what was learned of the old one's");
    assert.equal(meter.full(4_000 + 4 * (4_000 - after)), false);
  });
});

describe('tool results entering the conversation', () => {
  test('a result over the cap keeps its head and tail, and says how much was cut', () => {
    assert.equal(capToolResult('short'), 'short');
    const exact = 'x'.repeat(MAX_TOOL_RESULT_CHARS);
    assert.equal(capToolResult(exact), exact);
    const long = `HEAD${'m'.repeat(100_000)}TAIL`;
    const capped = capToolResult(long);
    assert.ok(capped.startsWith('HEAD') && capped.endsWith('TAIL'));
    assert.ok(capped.includes('\n… [70008 characters cut from the middle of this tool result] …\n'), capped.slice(14_990, 15_080));
    assert.equal(capped.replace(/\n… \[.*\] …\n/, '').length, MAX_TOOL_RESULT_CHARS);
  });
});
