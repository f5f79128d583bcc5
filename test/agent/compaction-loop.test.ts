import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AgentLoop } from '../../src/agent/loop.js';
import { Conversation, type ConversationRecord } from '../../src/agent/conversation.js';
import type { AgentEvent } from '../../src/agent/events.js';
import { SUMMARY_HEADER } from '../../src/agent/compaction.js';
import { ModelClient } from '../../src/model/client.js';
import { parseScript } from '../../src/offline/script.js';
import type { MessagesRequest } from '../../src/offline/request.js';
import { systemText } from '../../src/offline/request.js';
import { OFFLINE_MODEL } from '../../src/offline/model-id.js';
import { startOfflineServer, type OfflineServer } from '../../src/offline/server.js';

const SUMMARY = 'SUMMARY-7F3: steps so far were all fine.';
/** The worker's steps, after whichever summariser a test puts first. */
const STEPS = [
  { when: { last: 'step 12:' }, reply: { text: 'All twelve steps done.' } },
  { when: { last: 'step \\d+:' }, reply: { text: 'Next step.', tool_uses: [{ name: 'grow', input: {} }] } },
  { when: { last: 'begin' }, reply: { text: 'Starting.', tool_uses: [{ name: 'grow', input: {} }] } },
  { reply: { text: 'ok' } },
];
const summariser = (text: string) => ({ when: { system: "^You summarise an agent's conversation" }, reply: { text } });
const script = parseScript({ version: 1, rules: [summariser(SUMMARY), ...STEPS] });
const TOOLS = [{ name: 'grow', description: 'One step of work with a long output', input_schema: { type: 'object' as const, properties: {} } }];
const SYSTEM = 'You are a worker.';

/** A tool whose every result is 4,000 characters (about 1,000 tokens), numbered. */
function growing(): { execute: () => Promise<{ content: string }> } {
  let step = 0;
  return { execute: async () => ({ content: `step ${++step}: ${'x'.repeat(4_000)}` }) };
}

function recorder(loop: AgentLoop): AgentEvent[] {
  const events: AgentEvent[] = [];
  loop.subscribe((event) => events.push(event));
  return events;
}

const isSummariser = (body: MessagesRequest) => systemText(body).startsWith('You summarise');

describe('AgentLoop compaction, against the offline server', () => {
  let server: OfflineServer;
  let tight: OfflineServer;
  let model: ModelClient;
  const requests: MessagesRequest[] = [];
  before(async () => {
    server = await startOfflineServer({ script, onRequest: (body) => requests.push(body) });
    // A window the loop does not know about: only the API's refusal can tell it.
    tight = await startOfflineServer({ script, contextWindow: 5_000 });
    model = new ModelClient({ model: OFFLINE_MODEL, apiKey: 'offline', baseURL: server.url, maxRetries: 0 });
  });
  after(async () => {
    await server.close();
    await tight.close();
  });

  test('past the threshold it compacts before the next call, several times, and every call after carries the summary', async () => {
    requests.length = 0;
    const records: ConversationRecord[] = [];
    const conversation = new Conversation({ sink: async (record) => void records.push(record) });
    const loop = new AgentLoop({ system: SYSTEM, tools: TOOLS, model, ...growing(), conversation, context: { window: 6_000, protocolState: () => 'Your task: twelve steps.' } });
    const events = recorder(loop);
    loop.push('begin');
    await loop.idle();

    const compactions = events.filter((e) => e.type === 'compacted');
    assert.ok(compactions.length >= 2, `compacted ${compactions.length} times`);
    for (const c of compactions) {
      assert.equal(c.reason, 'threshold');
      assert.ok(c.before >= 0.8 * 6_000 && c.after < c.before / 2, `${c.before} → ${c.after}`);
      assert.ok(c.usage.input_tokens > 0);
    }
    assert.deepEqual(events.at(-1), { type: 'idle', reason: 'end_turn', lastText: 'All twelve steps done.' });
    assert.equal(records.filter((r) => r.type === 'replaced').length, compactions.length, 'each compaction is one replaced record');

    // Every agent call after the first compaction opens with the marked summary and the state.
    const first = requests.findIndex(isSummariser);
    const later = requests.slice(first).filter((r) => !isSummariser(r));
    assert.ok(later.length > 0);
    for (const body of later) {
      const opening = JSON.stringify(body.messages[0]?.content);
      assert.ok(opening.includes(SUMMARY_HEADER.slice(1, 40)) && opening.includes('SUMMARY-7F3') && opening.includes('Your task: twelve steps.'), opening.slice(0, 200));
    }
    // The reply's room shrinks as the window fills, never below 1,024 tokens nor above the default.
    const rooms = requests.filter((r) => !isSummariser(r)).map((r) => r.max_tokens);
    assert.ok(rooms.every((n) => n >= 1_024 && n < 6_000), rooms.join(' '));
    // The summariser got text, no tools, and its own system prompt.
    const summariser = requests.filter(isSummariser);
    assert.equal(summariser.length, compactions.length);
    for (const body of summariser) assert.equal(body.tools?.length ?? 0, 0);
    // The kept tail is whole: the conversation still reads as twelve steps to its end.
    assert.equal(loop.messages.at(-1)?.role, 'assistant');
    assert.match(JSON.stringify(loop.messages), /step 12:/);
  });

  test('the API\'s "prompt is too long" compacts the conversation and retries the call once', async () => {
    const tightModel = new ModelClient({ model: OFFLINE_MODEL, apiKey: 'offline', baseURL: tight.url, maxRetries: 0 });
    // The loop believes in a large window: the threshold never fires.
    const loop = new AgentLoop({ system: SYSTEM, tools: TOOLS, model: tightModel, ...growing(), context: { window: 200_000 } });
    const events = recorder(loop);
    loop.push('begin');
    await loop.idle();
    const compactions = events.filter((e) => e.type === 'compacted');
    assert.equal(compactions[0]?.reason, 'overflow');
    // Having heard the API's window, the loop goes by it: later compactions come before a refusal.
    assert.ok(compactions.slice(1).every((c) => c.reason === 'threshold'), JSON.stringify(compactions.map((c) => c.reason)));
    assert.deepEqual(events.filter((e) => e.type === 'error'), []);
    assert.deepEqual(events.at(-1), { type: 'idle', reason: 'end_turn', lastText: 'All twelve steps done.' });
  });

  test('a summarising call that is itself too long is cut harder, not retried as it was', async () => {
    const tightModel = new ModelClient({ model: OFFLINE_MODEL, apiKey: 'offline', baseURL: tight.url, maxRetries: 0 });
    const earlier: ConversationRecord[] = [{ type: 'user', content: [{ type: 'text', text: 'begin' }] }];
    // Eight long exchanges: about 8,000 tokens, far over the server's 5,000.
    for (let i = 1; i <= 8; i++) {
      earlier.push({ type: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'grow', input: {} }] });
      earlier.push({ type: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `step ${i}: ${'y'.repeat(4_000)}` }] });
    }
    const loop = new AgentLoop({ system: SYSTEM, tools: TOOLS, model: tightModel, ...growing(), conversation: new Conversation({ earlier }), context: { window: 10_000 } });
    const events = recorder(loop);
    loop.compact();
    await loop.idle();
    const compacted = events.find((e) => e.type === 'compacted');
    assert.ok(compacted, JSON.stringify(events));
    assert.equal(compacted.reason, 'manual');
    const opening = JSON.stringify(loop.messages[0]?.content);
    assert.match(opening, /SUMMARY-7F3/);
    assert.match(opening, /The oldest \d+ of \d+ messages did not fit the summariser and are lost/);
    assert.equal(events.some((e) => e.type === 'idle' || e.type === 'turn_start'), false, 'an idle compaction starts no turn and reports no idle');
  });

  test('/compact while a turn runs waits for the next model call; with nothing to cut it says so', async () => {
    const lone = new AgentLoop({ system: SYSTEM, tools: [], model, execute: async () => ({ content: '' }), context: { window: 200_000 } });
    const loneEvents = recorder(lone);
    lone.compact();
    await lone.idle();
    assert.deepEqual(loneEvents, [{ type: 'error', message: 'nothing to compact: the conversation is only its latest turn' }]);

    const tool = growing();
    const loop: AgentLoop = new AgentLoop({
      system: SYSTEM,
      tools: TOOLS,
      model,
      execute: async () => {
        const result = await tool.execute();
        // Asked mid-turn, after the sixth tool: done before the next model call. By then the
        // turns beyond the kept tail (a fifth of the window) are worth summarising.
        if (result.content.startsWith('step 6:')) loop.compact('keep every step number');
        return result;
      },
      context: { window: 20_000 },
    });
    const events = recorder(loop);
    requests.length = 0;
    loop.push('begin');
    await loop.idle();
    // The human's instructions steer the summary: they reach the summariser's system prompt.
    const summariserCall = requests.find(isSummariser);
    assert.ok(summariserCall, 'the summariser was called');
    assert.match(systemText(summariserCall), /\n\nThe human asked this summary to: keep every step number$/);
    const order = events.filter((e) => e.type === 'compacted' || e.type === 'turn_start').map((e) => (e.type === 'compacted' ? `compacted:${e.reason}` : 'turn'));
    assert.deepEqual(order.slice(5, 8), ['turn', 'compacted:manual', 'turn']);
    assert.equal(order.filter((o) => o !== 'turn').length, 1);
  });

  test('a summary that would not save a fifth of the conversation is not put in: /compact says so and the conversation is as it was', async () => {
    // A summariser that writes far more than the past it summarises.
    const verbose = await startOfflineServer({ script: parseScript({ version: 1, rules: [summariser('S'.repeat(60_000)), ...STEPS] }) });
    try {
      const loop = new AgentLoop({ system: SYSTEM, tools: TOOLS, model: new ModelClient({ model: OFFLINE_MODEL, apiKey: 'offline', baseURL: verbose.url, maxRetries: 0 }), execute: growing().execute, context: { window: 200_000 } });
      loop.push('begin');
      await loop.idle();
      const before = JSON.stringify(loop.messages);
      const events = recorder(loop);
      loop.compact();
      await loop.idle();
      assert.deepEqual(events.map((e) => e.type), ['compaction_skipped']);
      const skipped = events[0]?.type === 'compaction_skipped' ? events[0] : undefined;
      assert.match(skipped?.message ?? '', /^compaction skipped: the summary would make the conversation \d+% larger \(it must save at least 20%\); the conversation is kept as it was$/);
      // The summary was made, and paid for: its call's tokens are reported to be counted.
      assert.ok((skipped?.usage.input_tokens ?? 0) > 0 && (skipped?.usage.output_tokens ?? 0) > 0, JSON.stringify(skipped?.usage));
      assert.equal(skipped?.model, OFFLINE_MODEL);
      assert.equal(JSON.stringify(loop.messages), before);
    } finally {
      await verbose.close();
    }
  });

  test('a tool result over the cap is cut where it enters the conversation', async () => {
    const loop = new AgentLoop({ system: SYSTEM, tools: TOOLS, model, execute: async () => ({ content: `step 12: ${'z'.repeat(100_000)}` }), context: { window: 200_000 } });
    const events = recorder(loop);
    loop.push('begin');
    await loop.idle();
    const results = loop.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.flatMap((b) => (b.type === 'tool_result' ? [b] : []))));
    assert.equal(results.length, 1);
    const content = String(results[0]?.content);
    assert.ok(content.length < 30_100, `${content.length} characters`);
    assert.match(content, /characters cut from the middle of this tool result/);
    const shown = events.find((e) => e.type === 'tool_result');
    assert.equal(shown?.type === 'tool_result' ? shown.content : '', content, 'the UI sees what the model sees');
  });

  test('a replaced record is not changed by what the conversation does next', async () => {
    const held: ConversationRecord[] = [];
    const conversation = new Conversation({ sink: async (record) => void held.push(record) });
    conversation.replace([{ role: 'user', content: [{ type: 'text', text: 'summary' }] }]);
    // Extends the last (user) message before the sink has run: the record must keep its one block.
    conversation.appendUser([{ type: 'text', text: 'news' }]);
    await conversation.settled();
    assert.deepEqual(held[0], { type: 'replaced', messages: [{ role: 'user', content: [{ type: 'text', text: 'summary' }] }] });
    assert.deepEqual(new Conversation({ earlier: held }).messages, conversation.messages);
  });
});
