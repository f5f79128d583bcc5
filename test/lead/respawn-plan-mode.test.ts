import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { respawnsInPlanMode } from '../../src/lead/respawn.js';
import type { RequestRecord } from '../../src/protocol/request-records.js';

const SPAWNED = '2026-12-03T10:00:00.000Z';

function plan(state: RequestRecord['state'], created_at: string, from = 'alice'): RequestRecord {
  return { request_id: `plan-${created_at.slice(11, 19).replace(/:/g, '')}`, kind: 'plan', from, to: 'lead', created_at, deadline_at: '2026-12-03T11:00:00.000Z', state, summary: '1. do it' };
}

describe('a respawned teammate is in plan mode until a plan of its own, since its spawn, is approved', () => {
  test('spawned without plan mode: never', () => {
    assert.equal(respawnsInPlanMode({ name: 'alice' }, []), false);
  });

  test('spawned in plan mode, whichever lead did it: until one of its plans since is approved', () => {
    const alice = { name: 'alice', plan_mode_since: SPAWNED };
    assert.equal(respawnsInPlanMode(alice, []), true);
    assert.equal(respawnsInPlanMode(alice, [plan('rejected', '2026-12-03T10:01:00.000Z'), plan('cancelled', '2026-12-03T10:02:00.000Z')]), true);
    assert.equal(respawnsInPlanMode(alice, [plan('approved', '2026-12-03T10:03:00.000Z', 'bob')]), true, 'another member\'s plan');
    assert.equal(respawnsInPlanMode(alice, [plan('approved', '2026-12-03T10:03:00.000Z')]), false);
  });

  test('a plan approved before a fresh spawn under the same name does not count', () => {
    assert.equal(respawnsInPlanMode({ name: 'alice', plan_mode_since: SPAWNED }, [plan('approved', '2026-12-03T09:59:59.999Z')]), true);
  });
});
