import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { tempHome } from '../helpers/temp.js';
import { killAll } from '../helpers/children.js';
import { storeOf } from '../helpers/store.js';
import { TeamBus } from '../../src/team/bus.js';
import { newRequestId } from '../../src/protocol/ids.js';
import type { Envelope } from '../../src/protocol/messages.js';

after(killAll);

/** Another process's side of the protocol, in-process: the CLI is the human's side. */
function teammateBus(home: string): { bus: TeamBus; inbox: () => Promise<Envelope[]> } {
  const store = storeOf(home);
  return { bus: new TeamBus(store), inbox: async () => (await store.mailboxes.peek('alice')).messages };
}

describe('teams requests / approve / reject', () => {
  const { home, cleanup } = tempHome();
  after(cleanup);
  before(async () => {
    assert.equal((await runCli(home, ['member', 'add', 'alice', '--role', 'coder'])).code, 0);
  });

  test('a plan request is listed, approved once, and the teammate gets the response', async () => {
    const { bus, inbox } = teammateBus(home);
    const id = newRequestId('plan');
    await bus.send({ type: 'plan_approval_request', from: 'alice', to: 'lead', request_id: id, plan: '1. read\n2. write' });

    const listed = (await runCli(home, ['requests', '--json', '--state', 'pending'])).stdout.trim().split('\n').map((l) => JSON.parse(l) as { request_id: string; kind: string; from: string });
    assert.deepEqual(listed.map((r) => [r.request_id, r.kind, r.from]), [[id, 'plan', 'alice']]);
    assert.match((await runCli(home, ['status'])).stdout, new RegExp(`${id}\\s+plan\\s+alice`));

    const approved = await runCli(home, ['approve', id, '--feedback', 'go ahead']);
    assert.equal(approved.code, 0, approved.stderr);
    const responses = (await inbox()).filter((m) => m.type === 'plan_approval_response');
    assert.equal(responses.length, 1);
    assert.deepEqual(responses[0], { ...responses[0], from: 'lead', request_id: id, approve: true, feedback: 'go ahead' });

    const again = await runCli(home, ['approve', id]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, new RegExp(`request '${id}' was already approved`));
    assert.equal((await inbox()).filter((m) => m.type === 'plan_approval_response').length, 1);
  });

  test('reject needs a reason and delivers it as feedback', async () => {
    const { bus, inbox } = teammateBus(home);
    const id = newRequestId('permission');
    await bus.send({ type: 'permission_request', from: 'alice', to: 'lead', request_id: id, tool_name: 'bash', tool_input: { command: 'rm -rf build' }, reason: 'clean' });
    const missing = await runCli(home, ['reject', id]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /required option '--reason <text>'/);
    const rejected = await runCli(home, ['reject', id, '--reason', 'use make clean']);
    assert.equal(rejected.code, 0, rejected.stderr);
    const response = (await inbox()).find((m) => m.type === 'permission_response');
    assert.ok(response && response.type === 'permission_response');
    assert.equal(response.approve, false);
    assert.equal(response.feedback, 'use make clean');
  });

  test('errors: unknown id, a shutdown request, a bad --state', async () => {
    const unknown = await runCli(home, ['approve', 'plan-zzzzzzzzzz']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown request_id 'plan-zzzzzzzzzz'/);

    const lead = teammateBus(home).bus;
    const shutdownId = newRequestId('shutdown');
    await lead.send({ type: 'shutdown_request', from: 'lead', to: 'alice', request_id: shutdownId, reason: 'done' });
    const notOurs = await runCli(home, ['approve', shutdownId]);
    assert.equal(notOurs.code, 2);
    assert.match(notOurs.stderr, /only alice answers it/);

    const state = await runCli(home, ['requests', '--state', 'waiting']);
    assert.equal(state.code, 2);
    assert.match(state.stderr, /--state must be one of pending, approved, rejected, expired, cancelled/);
  });

  test('an overdue plan expires as a rejection the teammate is told about; approving it then fails', async () => {
    await storeOf(home).roster.update((config) => {
      config.deadlines_ms = { plan: 1 };
    });
    const { bus, inbox } = teammateBus(home);
    const id = newRequestId('plan');
    await bus.send({ type: 'plan_approval_request', from: 'alice', to: 'lead', request_id: id, plan: 'slow plan' });
    const approve = await runCli(home, ['approve', id]);
    assert.equal(approve.code, 2);
    assert.match(approve.stderr, new RegExp(`request '${id}'.*expired`));
    const listed = (await runCli(home, ['requests', '--json', '--state', 'expired'])).stdout;
    assert.match(listed, new RegExp(id));
    const told = (await inbox()).find((m) => m.type === 'plan_approval_response' && m.request_id === id);
    assert.ok(told && told.type === 'plan_approval_response');
    assert.equal(told.approve, false);
    assert.match(told.feedback ?? '', /no decision came in time/i);
    await storeOf(home).roster.update((config) => {
      delete config.deadlines_ms;
    });
  });
});
