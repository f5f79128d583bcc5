import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  ModelClient,
  ModelError,
  TurnAbortedError,
  type ModelEvent,
  type ModelTurn,
  type ToolSpec,
  type TurnRequest,
} from '../../src/model/client.js';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { openModel } from '../../src/model/connect.js';
import type { TokenUsage } from '../../src/model/usage.js';
import { resolveModelSettings } from '../../src/model/settings.js';
import type { MessagesRequest } from '../../src/offline/request.js';
import { parseScript } from '../../src/offline/script.js';
import { OFFLINE_MODEL, OFFLINE_MODEL_LABEL } from '../../src/offline/model-id.js';
import { offlineToolUseId } from '../../src/offline/match.js';
import { startOfflineServer, type OfflineServer } from '../../src/offline/server.js';
import { waitFor } from '../helpers/wait.js';

const TEXT = 'I will write the notes file now, then report back to the lead when it is done.';
const INPUT = { path: 'notes.md', content: '# Notes\n\nFirst "quoted" line.\n' };

/** Each scenario is selected by the user's text; errors are limited with `times`. */
const script = parseScript({
  version: 1,
  rules: [
    { when: { last: '^overloaded' }, times: 1, reply: { error: { status: 529, retry_after_ms: 1 } } },
    { when: { last: '^broken' }, times: 1, reply: { error: { status: 500, retry_after_ms: 1 } } },
    { when: { last: '^rate limited' }, times: 1, reply: { error: { status: 429, retry_after_ms: 1 } } },
    { when: { last: '^always overloaded' }, reply: { error: { status: 529, retry_after_ms: 1 } } },
    { when: { last: '^in-stream' }, times: 1, reply: { error: { status: 529, in_stream: true } } },
    { when: { last: '^invalid' }, reply: { error: { status: 400, message: 'messages: bad' } } },
    { when: { last: '^stall' }, reply: { text: TEXT, stall_after_deltas: 2 } },
    { when: { last: '^write' }, reply: { text: TEXT, tool_uses: [{ name: 'write_file', input: INPUT }] } },
    { reply: { text: TEXT } },
  ],
});

/** Long enough (with the tools) for the API's 1024-token minimum cacheable prefix. */
const LONG_SYSTEM = 'You are the lead. You keep the team on task and answer briefly. '.repeat(70);

const TOOLS: ToolSpec[] = [
  { name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'write_file', description: 'Write a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
];

function request(text: string, extra: Partial<TurnRequest> = {}): TurnRequest {
  return { system: 'You are the lead.', tools: TOOLS, messages: [{ role: 'user', content: text }], ...extra };
}

describe('ModelClient against the offline server', () => {
  let server: OfflineServer;
  let client: ModelClient;
  const received: MessagesRequest[] = [];

  before(async () => {
    server = await startOfflineServer({ script, host: '127.0.0.1', port: 0, onRequest: (body) => received.push(body) });
    client = new ModelClient({ model: OFFLINE_MODEL, apiKey: 'offline', baseURL: server.url, maxRetries: 2, streamRetryDelayMs: 1 });
  });
  after(() => server.close());

  /** Server hits caused by `run`. */
  async function hitsOf<T>(run: () => Promise<T>): Promise<number> {
    const before = server.hits;
    await run().catch(() => undefined);
    return server.hits - before;
  }

  test('streams events and returns the turn: text deltas, tool input deltas, usage', async () => {
    const events: ModelEvent[] = [];
    const turn = await client.turn(request('write the notes'), (event) => events.push(event));

    const texts = events.filter((e) => e.type === 'text_delta');
    assert.ok(texts.length > 3, `several text deltas, got ${texts.length}`);
    assert.equal(texts.map((e) => e.text).join(''), TEXT);
    const start = events.find((e) => e.type === 'tool_use_start');
    assert.deepEqual(start, { type: 'tool_use_start', index: 1, id: offlineToolUseId('write the notes', 1, 1), name: 'write_file' });
    const fragments = events.flatMap((e) => (e.type === 'tool_input_delta' ? [e.partial_json] : []));
    assert.ok(fragments.length > 2);
    assert.deepEqual(JSON.parse(fragments.join('')), INPUT);

    assert.deepEqual(turn.content, [
      { type: 'text', text: TEXT },
      { type: 'tool_use', id: offlineToolUseId('write the notes', 1, 1), name: 'write_file', input: INPUT },
    ]);
    assert.equal(turn.stop_reason, 'tool_use');
    assert.equal(turn.model, OFFLINE_MODEL);
    assert.ok(turn.usage.output_tokens > 0);
    assert.deepEqual(events.at(-1), { type: 'turn_end', stop_reason: 'tool_use', usage: turn.usage });
  });

  test('marks the last tool, the system block and the latest message for prompt caching, and only those', async () => {
    const system = LONG_SYSTEM;
    const events: ModelEvent[] = [];
    await client.turn(request('hello', { system }), (event) => events.push(event));
    const body = received.at(-1);
    assert.ok(body);
    assert.deepEqual(body.system, [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }]);
    assert.deepEqual(
      body.tools?.map((tool) => tool.cache_control),
      [undefined, { type: 'ephemeral' }],
    );
    assert.deepEqual(body.messages, [{ role: 'user', content: [{ type: 'text', text: 'hello', cache_control: { type: 'ephemeral' } }] }]);
    assert.equal(body.stream, true);
    // The second turn with the same tools and system reads the cache the first one wrote.
    const second = await client.turn(request('hello again', { system }), () => undefined);
    assert.ok(second.usage.cache_read_tokens > 0);
    assert.ok(second.usage.cache_write_tokens > 0, 'its own new message is written');
  });

  test('a conversation: the latest block and the end of the previous call carry breakpoints, four in all; each call reads the one before', async () => {
    const system = LONG_SYSTEM;
    const messages: MessageParam[] = [{ role: 'user', content: 'write the notes' }];
    const before = received.length;
    const usages: TokenUsage[] = [];
    for (let call = 0; call < 3; call++) {
      const turn = await client.turn({ system, tools: TOOLS, messages }, () => undefined);
      usages.push(turn.usage);
      const use = turn.content.find((block) => block.type === 'tool_use');
      assert.ok(use);
      messages.push({ role: 'assistant', content: turn.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: `write more, part ${call}` }] });
    }
    const bodies = received.slice(before);
    const third = bodies[2];
    assert.ok(third);
    const marked = third.messages.flatMap((message, m) => (typeof message.content === 'string' ? [] : message.content.flatMap((block, b) => (block.cache_control ? [`${m}.${b}`] : []))));
    assert.deepEqual(marked, ['2.0', '4.0'], 'the previous call ended with message 2, this one with message 4');
    assert.equal(typeof messages[0]?.content, 'string', 'the caller’s messages are not changed');
    assert.ok(messages.every((message) => typeof message.content === 'string' || message.content.every((block) => !('cache_control' in block))));
    usages.forEach((usage, call) => assert.equal(usage.input_tokens, 0, `call ${call + 1}: everything up to the latest block is cached`));
    for (const call of [1, 2]) {
      const [previous, current] = [usages[call - 1], usages[call]];
      assert.ok(previous && current);
      assert.equal(current.cache_read_tokens, previous.cache_read_tokens + previous.cache_write_tokens, `call ${call + 1} reads all of call ${call}`);
    }
  });

  test('a step of more than 20 blocks (12 parallel tool calls and their results) still reads the previous call whole', async () => {
    const question: MessageParam = { role: 'user', content: 'read all twelve files' };
    const first = await client.turn({ system: LONG_SYSTEM, tools: TOOLS, messages: [question] }, () => undefined);
    const ids = Array.from({ length: 12 }, (_, i) => `toolu_many_${i}`);
    const step: MessageParam[] = [
      { role: 'assistant', content: ids.map((id, i) => ({ type: 'tool_use' as const, id, name: 'read_file', input: { path: `f${i}.md` } })) },
      { role: 'user', content: ids.map((id, i) => ({ type: 'tool_result' as const, tool_use_id: id, content: `file ${i}: ${'text '.repeat(40)}` })) },
    ];
    const second = await client.turn({ system: LONG_SYSTEM, tools: TOOLS, messages: [question, ...step] }, () => undefined);
    assert.equal(second.usage.cache_read_tokens, first.usage.cache_read_tokens + first.usage.cache_write_tokens, 'found at the breakpoint where the previous call ended');
    assert.equal(second.usage.input_tokens, 0);
  });

  test('without conversation caching only the tools and the system prompt carry breakpoints', async () => {
    const plain = new ModelClient({ model: OFFLINE_MODEL, apiKey: 'offline', baseURL: server.url, maxRetries: 0, cacheConversation: false });
    await plain.turn(request('hello', { system: LONG_SYSTEM }), () => undefined);
    assert.deepEqual(received.at(-1)?.messages, [{ role: 'user', content: 'hello' }]);
  });

  test('retries a 529 overloaded, a 500 and a 429 once, then succeeds (the SDK retries)', async () => {
    for (const scenario of ['overloaded', 'broken', 'rate limited']) {
      let turn: ModelTurn | undefined;
      assert.equal(await hitsOf(async () => (turn = await client.turn(request(scenario), () => undefined))), 2, scenario);
      assert.equal(turn?.stop_reason, 'end_turn', scenario);
    }
  });

  test('gives up after maxRetries with a retryable ModelError', async () => {
    let failure: unknown;
    const hits = await hitsOf(() => client.turn(request('always overloaded'), () => undefined).catch((error: unknown) => (failure = error)));
    assert.equal(hits, 3);
    assert.ok(failure instanceof ModelError);
    assert.equal(failure.status, 529);
    assert.equal(failure.errorType, 'overloaded_error');
    assert.equal(failure.retryable, true);
  });

  test('does not retry a 400', async () => {
    let failure: unknown;
    assert.equal(await hitsOf(() => client.turn(request('invalid'), () => undefined).catch((e: unknown) => (failure = e))), 1);
    assert.ok(failure instanceof ModelError);
    assert.equal(failure.status, 400);
    assert.equal(failure.retryable, false);
    assert.match(failure.message, /messages: bad/);
  });

  test('retries an overloaded error that arrives inside a 200 stream', async () => {
    let turn: ModelTurn | undefined;
    assert.equal(await hitsOf(async () => (turn = await client.turn(request('in-stream'), () => undefined))), 2);
    assert.equal(turn?.stop_reason, 'end_turn');
  });

  test('aborting mid-stream rejects with what had streamed and closes the request', async () => {
    const controller = new AbortController();
    const texts: string[] = [];
    const turn = client.turn(request('stall here', { signal: controller.signal }), (event) => {
      if (event.type !== 'text_delta') return;
      texts.push(event.text);
      if (texts.length === 2) controller.abort();
    });
    await assert.rejects(turn, (error: unknown) => error instanceof TurnAbortedError && error.partialText === texts.join(''));
    assert.equal(texts.length, 2);
    await waitFor(() => server.inFlight === 0, 'the aborted response to close');
  });

  test('an exception from onEvent reaches the caller unchanged and ends the request', async () => {
    const mine = new Error('renderer broke');
    await assert.rejects(
      client.turn(request('stall'), () => {
        throw mine;
      }),
      (error: unknown) => error === mine,
    );
    await waitFor(() => server.inFlight === 0, 'the abandoned response to close');
  });

  test('an already aborted signal sends nothing', async () => {
    const hits = await hitsOf(async () => {
      await assert.rejects(client.turn(request('hello', { signal: AbortSignal.abort() }), () => undefined), TurnAbortedError);
    });
    assert.equal(hits, 0);
  });
});

describe('openModel', () => {
  test('offline, it serves the demo script on its own server and labels the model', async () => {
    const model = await openModel(resolveModelSettings({}, {}));
    try {
      assert.equal(model.label, OFFLINE_MODEL_LABEL);
      const spawnTool: ToolSpec = { name: 'spawn_teammate', description: 'Spawn', input_schema: { type: 'object' } };
      const turn = await model.client.turn(
        { system: 'You are the lead.', tools: [spawnTool], messages: [{ role: 'user', content: 'Tidy the docs' }] },
        () => undefined,
      );
      assert.deepEqual(turn.content.at(-1), {
        type: 'tool_use',
        id: offlineToolUseId('Tidy the docs', 1, 1),
        name: 'spawn_teammate',
        input: { name: 'alice', role: 'coder', prompt: 'Tidy the docs', plan_mode: true },
      });
    } finally {
      await model.close();
    }
  });
});
