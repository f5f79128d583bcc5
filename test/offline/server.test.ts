import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic, { BadRequestError } from '@anthropic-ai/sdk';
import type { MessageStreamEvent, Tool } from '@anthropic-ai/sdk/resources/messages';
import { OFFLINE_MODEL } from '../../src/offline/model-id.js';
import { offlineToolUseId } from '../../src/offline/match.js';
import { startOfflineServer, type OfflineServer } from '../../src/offline/server.js';
import { parseScript } from '../../src/offline/script.js';
import { waitFor } from '../helpers/wait.js';

const LONG_TEXT = 'The offline model streams this sentence in several small pieces, like the real API does.';
const TOOL_INPUT = { path: 'notes/today.md', content: 'line one\nline "two"\n', append: false, tags: ['a', 'b'] };

const script = parseScript({
  version: 1,
  rules: [
    { when: { last: 'stall' }, reply: { text: LONG_TEXT, stall_after_deltas: 1 } },
    { when: { last: 'write' }, reply: { text: 'Writing it.', tool_uses: [{ name: 'write_file', input: TOOL_INPUT }] } },
    { reply: { text: LONG_TEXT } },
  ],
});

const TOOLS: Tool[] = [
  { name: 'write_file', description: 'Write a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
];

describe('offline server, driven by the real SDK', () => {
  let server: OfflineServer;
  let sdk: Anthropic;

  before(async () => {
    server = await startOfflineServer({ script, host: '127.0.0.1', port: 0 });
    sdk = new Anthropic({ apiKey: 'offline', baseURL: server.url, maxRetries: 0 });
  });
  after(() => server.close());

  test('streams text as several text deltas, with usage and the model echoed', async () => {
    const events: MessageStreamEvent[] = [];
    const stream = sdk.messages.stream({ model: OFFLINE_MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'hello' }] });
    stream.on('streamEvent', (event) => events.push(event));
    const message = await stream.finalMessage();

    const deltas = events.flatMap((e) => (e.type === 'content_block_delta' && e.delta.type === 'text_delta' ? [e.delta.text] : []));
    assert.ok(deltas.length > 3, `expected several deltas, got ${deltas.length}`);
    assert.equal(deltas.join(''), LONG_TEXT);
    assert.deepEqual(
      events.map((e) => e.type).filter((t, i, all) => t !== all[i - 1]),
      ['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop'],
    );
    assert.equal(message.model, OFFLINE_MODEL);
    assert.equal(message.stop_reason, 'end_turn');
    assert.deepEqual(message.content, [{ type: 'text', text: LONG_TEXT, citations: null }]);
    assert.ok(message.usage.input_tokens > 0 && message.usage.output_tokens > 1);
    assert.equal(message.usage.cache_read_input_tokens, 0);
    assert.equal(message.usage.cache_creation_input_tokens, 0);
  });

  test('streams tool input as several JSON fragments that reassemble exactly', async () => {
    const fragments: string[] = [];
    const stream = sdk.messages.stream({ model: OFFLINE_MODEL, max_tokens: 100, tools: TOOLS, messages: [{ role: 'user', content: 'write it' }] });
    stream.on('streamEvent', (e) => {
      if (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta') fragments.push(e.delta.partial_json);
    });
    const message = await stream.finalMessage();

    assert.ok(fragments.length > 2, `expected several fragments, got ${fragments.length}`);
    assert.deepEqual(JSON.parse(fragments.join('')), TOOL_INPUT);
    assert.equal(message.stop_reason, 'tool_use');
    const block = message.content[1];
    assert.equal(block?.type, 'tool_use');
    assert.deepEqual(block?.type === 'tool_use' ? [block.name, block.input, block.id] : [], ['write_file', TOOL_INPUT, offlineToolUseId('write it', 1, 1)]);
  });

  test('answers non-streaming requests with the same reply', async () => {
    const message = await sdk.messages.create({ model: 'any-model', max_tokens: 100, tools: TOOLS, messages: [{ role: 'user', content: 'write' }] });
    assert.equal(message.model, 'any-model');
    assert.equal(message.stop_reason, 'tool_use');
    assert.deepEqual(
      message.content.map((b) => b.type),
      ['text', 'tool_use'],
    );
    assert.ok(message.usage.output_tokens > 0);
  });

  test('simulates prompt caching: the first request writes the prefix, the next reads it', async () => {
    const system = [{ type: 'text' as const, text: 'A system prompt long enough to be cached: over 1024 tokens. '.repeat(80), cache_control: { type: 'ephemeral' as const } }];
    const ask = (content: string) => sdk.messages.create({ model: OFFLINE_MODEL, max_tokens: 50, system, messages: [{ role: 'user', content }] });
    const first = await ask('hello');
    const second = await ask('a different question');
    assert.ok((first.usage.cache_creation_input_tokens ?? 0) > 100);
    assert.equal(first.usage.cache_read_input_tokens, 0);
    assert.equal(second.usage.cache_creation_input_tokens, 0);
    assert.equal(second.usage.cache_read_input_tokens, first.usage.cache_creation_input_tokens);
  });

  test('refuses invalid requests with the API error shape, naming the field', async () => {
    await assert.rejects(
      sdk.messages.create({ model: OFFLINE_MODEL, max_tokens: 10, messages: [] }),
      (error: unknown) => error instanceof BadRequestError && error.type === 'invalid_request_error' && /messages/.test(error.message),
    );
    const response = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: '{"model": "x", "max_tokens": 1, "messages": [{"role": "robot", "content": "hi"}]}' });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { type: string; error: { type: string; message: string } };
    assert.equal(body.type, 'error');
    assert.equal(body.error.type, 'invalid_request_error');
    assert.match(body.error.message, /^messages\.0\.role: /);

    const notJson = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: '{' });
    assert.equal(notJson.status, 400);
    assert.match(((await notJson.json()) as { error: { message: string } }).error.message, /not valid JSON/);
  });

  test('past its context window, a request gets the API\'s "prompt is too long", as the SDK sees it', async () => {
    const small = await startOfflineServer({ script: parseScript({ version: 1, context_window: 50, rules: [{ reply: { text: 'fits' } }] }) });
    const client = new Anthropic({ apiKey: 'offline', baseURL: small.url, maxRetries: 0 });
    try {
      const fits = await client.messages.create({ model: OFFLINE_MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'short' }] });
      assert.deepEqual(fits.content.map((b) => (b.type === 'text' ? b.text : b.type)), ['fits']);
      await assert.rejects(
        client.messages.create({ model: OFFLINE_MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'x'.repeat(400) }] }),
        (error: unknown) =>
          error instanceof BadRequestError && error.status === 400 && error.type === 'invalid_request_error' && /^prompt is too long: \d+ tokens > 50 maximum$/.test(error.apiMessage ?? ''),
      );
    } finally {
      await small.close();
    }
    // The server's own option wins over the script's.
    const wide = await startOfflineServer({ script: parseScript({ version: 1, context_window: 50, rules: [{ reply: { text: 'fits' } }] }), contextWindow: 10_000 });
    try {
      const body = { model: OFFLINE_MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'x'.repeat(400) }] };
      const response = await fetch(`${wide.url}/v1/messages`, { method: 'POST', body: JSON.stringify(body) });
      assert.equal(response.status, 200);
    } finally {
      await wide.close();
    }
    assert.throws(() => parseScript({ version: 1, context_window: 0, rules: [] }), /context_window/);
  });

  test('unknown paths are 404 not_found_error', async () => {
    for (const [method, path] of [['GET', '/v1/models'], ['GET', '/v1/messages'], ['POST', '/v2/messages']] as const) {
      const response = await fetch(`${server.url}${path}`, { method, ...(method === 'POST' ? { body: '{}' } : {}) });
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.deepEqual(await response.json(), { type: 'error', error: { type: 'not_found_error', message: `Not found: ${method} ${path}` } });
    }
  });

  test('reports which rule answered', async () => {
    const response = await sdk.messages.create({ model: OFFLINE_MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).asResponse();
    assert.equal(response.headers.get('x-offline-rule'), '2');
    await response.text();
  });
});

describe('offline server lifecycle', () => {
  test('closes cleanly while a stream is stalled mid-message', async () => {
    const server = await startOfflineServer({ script });
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ model: OFFLINE_MODEL, max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'stall' }] }),
    });
    const reader = response.body?.getReader();
    assert.ok(reader);
    let received = '';
    while (!received.includes('text_delta')) {
      const chunk = await reader.read();
      assert.equal(chunk.done, false, 'the stream ended instead of stalling');
      received += new TextDecoder().decode(chunk.value);
    }
    assert.equal(server.inFlight, 1);
    await server.close();
    await assert.rejects(reader.read());
    await waitFor(() => server.inFlight === 0, 'the stalled response to close');
  });
});
