import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { AgentLoop } from '../../src/agent/loop.js';
import type { AgentEvent, IdleReason } from '../../src/agent/events.js';
import { ModelClient } from '../../src/model/client.js';
import { parseScript } from '../../src/offline/script.js';
import { OFFLINE_MODEL } from '../../src/offline/model-id.js';
import { startOfflineServer, type OfflineServer } from '../../src/offline/server.js';
import { waitFor } from '../helpers/wait.js';

const NOTE = '[The user interrupted you. Wait for their next message.]';

const script = parseScript({
  version: 1,
  rules: [
    // The model answers the note only when the user's next words come with it.
    { when: { last: 'interrupted you[\\s\\S]*carry on' }, reply: { text: 'Resuming as you say.' } },
    { when: { last: '^stall' }, reply: { text: 'Thinking about it at length, '.repeat(20), stall_after_deltas: 2 } },
    { when: { last: 'do the long work' }, reply: { text: 'Working.', tool_uses: [{ name: 'work', input: {} }] } },
    { reply: { text: 'ok' } },
  ],
});
const TOOLS = [{ name: 'work', description: 'Work until stopped', input_schema: { type: 'object' as const, properties: {} } }];

/** A tool that runs until its signal aborts, as a long command does until its group is killed. */
async function untilAborted(_call: unknown, signal: AbortSignal): Promise<{ content: string; isError: boolean }> {
  await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
  return { content: '[interrupted: the command and everything it started were killed]', isError: true };
}

const texts = (content: string | ContentBlockParam[] | undefined): string[] =>
  typeof content === 'string' ? [content] : (content ?? []).map((block) => (block.type === 'text' ? block.text : block.type));

describe("AgentLoop.halt: the user's interrupt", () => {
  let server: OfflineServer;
  let model: ModelClient;
  before(async () => {
    server = await startOfflineServer({ script });
    model = new ModelClient({ model: OFFLINE_MODEL, apiKey: 'offline', baseURL: server.url, maxRetries: 0 });
  });
  after(() => server.close());

  function watch(loop: AgentLoop): { reasons: IdleReason[]; events: AgentEvent[] } {
    const seen = { reasons: [] as IdleReason[], events: [] as AgentEvent[] };
    loop.subscribe((event) => {
      seen.events.push(event);
      if (event.type === 'idle') seen.reasons.push(event.reason);
    });
    return seen;
  }

  test('a tool under way is aborted, nothing more runs, and the note comes with the next input', async () => {
    const loop = new AgentLoop({ system: 'You are a teammate.', tools: TOOLS, model, execute: untilAborted });
    const { reasons, events } = watch(loop);
    const before = server.hits;
    loop.push('do the long work');
    await waitFor(() => events.some((e) => e.type === 'tool_call'), 'the tool to start');
    // News that arrives meanwhile waits with the note: it starts no turn of its own.
    loop.push('news from bob');
    loop.halt(NOTE);
    await waitFor(() => reasons.length === 1, 'the turn to end');
    await loop.idle();
    assert.deepEqual(reasons, ['interrupted']);
    assert.equal(loop.busy, false);
    assert.equal(server.hits - before, 1, 'no model call after the interrupt');
    assert.deepEqual(texts(loop.messages.at(-1)?.content), ['tool_result', 'news from bob', NOTE]);

    loop.push('carry on, please');
    await waitFor(() => reasons.length === 2, 'the next turn');
    assert.deepEqual(reasons, ['interrupted', 'end_turn']);
    assert.equal(server.hits - before, 2);
    // One user message: what the tool left, the news, the note, then the user's words.
    assert.deepEqual(texts(loop.messages.at(-2)?.content), ['tool_result', 'news from bob', NOTE, 'carry on, please']);
    assert.deepEqual(loop.messages.at(-1), { role: 'assistant', content: [{ type: 'text', text: 'Resuming as you say.' }] });
  });

  test('a model call under way is aborted; its prompt, the note and the next words go out together', async () => {
    const loop = new AgentLoop({ system: 'You are a teammate.', tools: [], model, execute: untilAborted });
    const { reasons, events } = watch(loop);
    loop.push('stall for a while');
    await waitFor(() => events.some((e) => e.type === 'text_delta'), 'the reply to start streaming');
    loop.halt(NOTE);
    await waitFor(() => reasons.length === 1, 'the turn to end');
    assert.deepEqual(reasons, ['interrupted']);
    assert.equal(loop.messages.length, 1, 'the unfinished reply is not in the conversation');
    loop.push('carry on');
    await waitFor(() => reasons.length === 2, 'the next turn');
    assert.deepEqual(texts(loop.messages[0]?.content), ['stall for a while', NOTE, 'carry on']);
    assert.deepEqual(loop.messages.at(-1), { role: 'assistant', content: [{ type: 'text', text: 'Resuming as you say.' }] });
  });

  test('idle, a halt changes nothing: no note, no event, no turn', async () => {
    const loop = new AgentLoop({ system: 'You are a teammate.', tools: [], model, execute: untilAborted });
    const { reasons, events } = watch(loop);
    loop.push('hello');
    await waitFor(() => reasons.length === 1, 'the first turn');
    const before = { messages: JSON.stringify(loop.messages), events: events.length, hits: server.hits };
    loop.halt(NOTE);
    assert.equal(events.length, before.events);
    assert.equal(JSON.stringify(loop.messages), before.messages);
    assert.equal(loop.busy, false);
    loop.push('hello again');
    await waitFor(() => reasons.length === 2, 'the second turn');
    assert.deepEqual(texts(loop.messages.at(-2)?.content), ['hello again']);
    assert.ok(!JSON.stringify(loop.messages).includes('interrupted you'), JSON.stringify(loop.messages));
    assert.equal(server.hits - before.hits, 1);
  });
});
