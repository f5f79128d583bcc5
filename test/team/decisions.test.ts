import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decisionDraft } from '../../src/team/decisions.js';
import type { RequestRecord } from '../../src/protocol/request-records.js';

function record(kind: RequestRecord['kind']): RequestRecord {
  return {
    request_id: `${kind}-abc`,
    kind,
    from: 'alice',
    to: 'lead',
    created_at: '2026-12-02T00:00:00.000Z',
    deadline_at: '2026-12-02T00:05:00.000Z',
    state: 'pending',
    summary: 'bash {"command":"rm -rf build"} (recursive delete)',
  };
}

function draft(kind: RequestRecord['kind'], decision: Parameters<typeof decisionDraft>[1]): Record<string, unknown> {
  const made = decisionDraft(record(kind), decision);
  assert.ok(made.ok);
  return made.draft;
}

describe('the lead\'s answer to a permission request carries "always" only when it was granted so', () => {
  test('approved always: the response says so, for the asker to keep', () => {
    assert.equal(draft('permission', { approve: true, always: true }).always, true);
  });

  test('approved once, or rejected with "always" set by mistake: nothing to keep', () => {
    assert.equal('always' in draft('permission', { approve: true }), false);
    assert.equal('always' in draft('permission', { approve: false, always: true }), false);
  });

  test('other kinds never carry it', () => {
    assert.equal('always' in draft('plan', { approve: true, always: true, permissionMode: 'default' }), false);
  });
});
