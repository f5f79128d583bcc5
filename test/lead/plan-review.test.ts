import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Refused } from '../../src/lib/refused.js';
import { REQUEST_KIND_NAMES, type RequestKind } from '../../src/protocol/messages.js';
import { leadTeamIO, type LeadActions } from '../../src/lead/io.js';
import type { TeamBus } from '../../src/team/bus.js';
import type { TeamStore } from '../../src/store/team-store.js';
import type { RequestRecord } from '../../src/protocol/request-records.js';

const unused = <T extends object>(what: string) => new Proxy({} as T, { get: () => assert.fail(`${what} was used`) });

const record = (kind: RequestKind, from = 'alice'): RequestRecord => ({
  request_id: `${kind}-0123456789`,
  kind,
  from,
  to: 'lead',
  created_at: '2025-01-01T00:00:00.000Z',
  deadline_at: '2025-01-01T00:05:00.000Z',
  state: 'pending',
  summary: 'x',
});

/** The lead's team IO over requests held in memory: every decision it reaches is recorded. */
function setup(records: RequestRecord[]) {
  const decided: unknown[] = [];
  const requests = new Map(records.map((r) => [r.request_id, r]));
  const store = { requests: { get: (id: string) => Promise.resolve(requests.get(id)) } } as unknown as TeamStore;
  const actions: LeadActions = {
    spawn: () => assert.fail('spawn'),
    respawn: () => assert.fail('respawn'),
    requestShutdown: () => assert.fail('requestShutdown'),
    checkCompletion: () => assert.fail('checkCompletion'),
    decide: (requestId, decision) => {
      decided.push([requestId, decision]);
      return Promise.resolve(undefined);
    },
  };
  return { io: leadTeamIO(unused<TeamBus>('bus'), store, actions), decided };
}

describe("the lead's model reviews plans, and only plans (--plan-reviewer lead)", () => {
  test('a plan is decided', async () => {
    const { io, decided } = setup([record('plan')]);
    await io.reviewPlan('plan-0123456789', true, undefined);
    await io.reviewPlan('plan-0123456789', false, 'smaller steps');
    assert.deepEqual(decided, [['plan-0123456789', { approve: true, note: undefined }], ['plan-0123456789', { approve: false, note: 'smaller steps' }]]);
  });

  for (const kind of REQUEST_KIND_NAMES.filter((k) => k !== 'plan')) {
    test(`a ${kind} request is refused, saying only the human decides it, and nothing is decided`, async () => {
      const { io, decided } = setup([record(kind)]);
      for (const approve of [true, false]) {
        await assert.rejects(io.reviewPlan(`${kind}-0123456789`, approve, undefined), (error: unknown) => {
          assert.ok(error instanceof Refused);
          assert.equal(error.message, `${kind}-0123456789 is a ${kind} request from alice, not a plan: plan_approval_response decides plans only, and only the human decides ${kind} requests`);
          return true;
        });
      }
      assert.deepEqual(decided, []);
    });
  }

  test('an unknown id is refused', async () => {
    const { io, decided } = setup([]);
    await assert.rejects(io.reviewPlan('plan-9999999999', true, undefined), /unknown request_id 'plan-9999999999'/);
    assert.deepEqual(decided, []);
  });
});
