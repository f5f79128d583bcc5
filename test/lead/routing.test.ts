import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { routeForLead } from '../../src/lead/routing.js';
import type { Envelope } from '../../src/protocol/messages.js';

const base = { id: '0000000000000000000a', from: 'alice', to: 'lead', timestamp: '2026-12-02T00:00:00.000Z' } as const;

describe('routing of messages that reach the lead', () => {
  const plan: Envelope = { ...base, type: 'plan_approval_request', request_id: 'plan-1', plan: '1. do it' };

  test('plans go to the human by default, to the lead model when it reviews', () => {
    assert.deepEqual(routeForLead(plan, 'human'), { forHuman: true });
    const byLead = routeForLead(plan, 'lead');
    assert.equal(byLead.forHuman, undefined);
    assert.match(byLead.notice ?? '', /plan-1/);
  });

  test('permissions and requests to be ended always go to the human', () => {
    assert.deepEqual(routeForLead({ ...base, type: 'permission_request', request_id: 'permission-1', tool_name: 'bash', tool_input: { command: 'sudo x' }, reason: 'sudo' }, 'lead'), { forHuman: true });
    assert.deepEqual(routeForLead({ ...base, type: 'finish_request', request_id: 'finish-1', summary: 'done' }, 'lead'), { forHuman: true });
  });

  test('an approved shutdown expects the exit; a refused one is only told', () => {
    const yes = routeForLead({ ...base, type: 'shutdown_response', request_id: 'shutdown-1', approve: true }, 'human');
    assert.equal(yes.expectExit, 'alice');
    const no = routeForLead({ ...base, type: 'shutdown_response', request_id: 'shutdown-1', approve: false, reason: 'busy' }, 'human');
    assert.equal(no.expectExit, undefined);
    assert.match(no.notice ?? '', /busy/);
  });

  test('an idle notification reaches the model only when it forwards unreported words', () => {
    assert.deepEqual(routeForLead({ ...base, type: 'idle_notification', reason: 'waiting' }, 'human'), {});
    assert.match(routeForLead({ ...base, type: 'idle_notification', reason: 'waiting', summary: 'the result is 42' }, 'human').notice ?? '', /42/);
  });
});
