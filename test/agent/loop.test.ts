import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AgentLoop } from '../../src/agent/loop.js';
import { Conversation, type ConversationRecord } from '../../src/agent/conversation.js';
import type { AgentEvent, IdleReason } from '../../src/agent/events.js';
import { ModelClient } from '../../src/model/client.js';
import { parseScript } from '../../src/offline/script.js';
import { OFFLINE_MODEL } from '../../src/offline/model-id.js';
import { startOfflineServer, type OfflineServer } from '../../src/offline/server.js';
import { waitFor } from '../helpers/wait.js';

const script = parseScript({
  version: 1,
  rules: [
    { when: { last: 'approved' }, reply: { text: 'Starting the work.' } },
    { when: { last: 'submit your plan' }, reply: { text: 'Submitting.', tool_uses: [{ name: 'submit', input: {} }] } },
    // A model that does not wait: after the tool result it would call the tool again, forever.
    { when: { after_tool: 'submit' }, reply: { text: 'Done already!', tool_uses: [{ name: 'submit', input: {} }] } },
    { reply: { text: 'ok' } },
  ],
});
const TOOLS = [{ name: 'submit', description: 'Submit a plan', input_schema: { type: 'object' as const, properties: {} } }];

describe('AgentLoop', () => {
  let server: OfflineServer;
  let model: ModelClient;
  before(async () => {
    server = await startOfflineServer({ script });
    model = new ModelClient({ model: OFFLINE_MODEL, apiKey: 'offline', baseURL: server.url, maxRetries: 0 });
  });
  after(() => server.close());

  function idleReasons(loop: AgentLoop): IdleReason[] {
    const reasons: IdleReason[] = [];
    loop.subscribe((event: AgentEvent) => {
      if (event.type === 'idle') reasons.push(event.reason);
    });
    return reasons;
  }

  test('journals every change before the model call that uses it; replaying the records rebuilds the conversation', async () => {
    const records: ConversationRecord[] = [];
    const seenAtCall: number[] = [];
    const conversation = new Conversation({ sink: async (record) => void records.push(record) });
    const loop = new AgentLoop({ system: 'You are the lead.', tools: [], model, execute: async () => ({ content: '' }), conversation });
    loop.subscribe((event) => {
      if (event.type === 'turn_start') seenAtCall.push(records.length);
    });
    loop.push('hello');
    await waitFor(() => !loop.busy && records.length === 2, 'the turn to end');
    assert.deepEqual(seenAtCall, [1]);
    assert.deepEqual(records.map((r) => r.type), ['user', 'assistant']);
    const replayed = new Conversation({ earlier: records });
    assert.deepEqual(replayed.messages, loop.messages);
  });

  test('a failing journal stops the turn before the model is called', async () => {
    const conversation = new Conversation({ sink: async () => Promise.reject(new Error('disk full')) });
    const loop = new AgentLoop({ system: 'You are the lead.', tools: [], model, execute: async () => ({ content: '' }), conversation });
    const errors: string[] = [];
    loop.subscribe((event) => {
      if (event.type === 'error') errors.push(event.message);
    });
    const before = server.hits;
    loop.push('hello');
    await waitFor(() => errors.length > 0, 'the error');
    await loop.idle();
    assert.deepEqual(errors, ['disk full']);
    assert.equal(server.hits, before);
  });

  test('a turn that asked for a decision ends after its tools, and the answer starts the next one', async () => {
    let awaiting = false;
    const loop = new AgentLoop({
      system: 'You are a teammate.',
      tools: TOOLS,
      model,
      execute: async () => {
        awaiting = true;
        return { content: 'Plan submitted. Wait for the decision.' };
      },
      waiting: () => awaiting,
    });
    const reasons = idleReasons(loop);
    const before = server.hits;
    loop.push('submit your plan');
    await waitFor(() => reasons.length === 1, 'the turn to end');
    assert.deepEqual(reasons, ['waiting']);
    assert.equal(server.hits - before, 1, 'no model call after the plan was submitted');
    awaiting = false;
    loop.push('Your plan was approved.');
    await waitFor(() => reasons.length === 2, 'the next turn');
    assert.deepEqual(reasons, ['waiting', 'end_turn']);
    assert.deepEqual(loop.messages.at(-1), { role: 'assistant', content: [{ type: 'text', text: 'Starting the work.' }] });
  });

  test('a conversation resumed from before the tools were renamed replays its old calls as history, without error', async () => {
    // `plan_approval` became plan_approval_request: the old call and its result stay in the
    // conversation, and nothing looks their name up again (closeInterruptedTools answers by id).
    const earlier: ConversationRecord[] = [
      { type: 'user', content: [{ type: 'text', text: 'submit your plan' }] },
      { type: 'assistant', content: [{ type: 'tool_use', id: 'toolu_old', name: 'plan_approval', input: { plan: '1. x' } }] },
      { type: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_old', content: 'Plan submitted (request plan-1).' }] },
    ];
    const renamed = TOOLS.map((tool) => ({ ...tool, name: 'plan_approval_request' }));
    const loop = new AgentLoop({ system: 'You are a teammate.', tools: renamed, model, execute: async () => ({ content: '' }), conversation: new Conversation({ earlier }) });
    const errors: string[] = [];
    loop.subscribe((event) => {
      if (event.type === 'error') errors.push(event.message);
    });
    const reasons = idleReasons(loop);
    loop.push('Your plan was approved.');
    await waitFor(() => reasons.length === 1, 'the turn to end');
    assert.deepEqual(errors, []);
    assert.deepEqual(reasons, ['end_turn']);
    assert.deepEqual(loop.messages.at(-1), { role: 'assistant', content: [{ type: 'text', text: 'Starting the work.' }] });
  });

  test('without the wait, the same model keeps calling tools until the turn cap', async () => {
    const loop = new AgentLoop({ system: 'You are a teammate.', tools: TOOLS, model, maxModelCalls: 4, execute: async () => ({ content: 'submitted' }) });
    const reasons = idleReasons(loop);
    loop.push('submit your plan');
    await waitFor(() => reasons.length === 1, 'the turn to end');
    assert.deepEqual(reasons, ['turn_cap']);
  });
});
