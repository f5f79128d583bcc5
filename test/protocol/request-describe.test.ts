import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asOpened, describeRequestChange } from '../../src/protocol/request-describe.js';
import type { RequestRecord } from '../../src/protocol/request-records.js';

const opened: RequestRecord = {
  request_id: 'review-abc', kind: 'review', from: 'alice', to: 'bob', created_at: '2030-01-01T10:00:00.000Z', deadline_at: '2030-01-01T10:10:00.000Z', state: 'pending', summary: 'Parser fix (files: src/parser.ts)',
};

test('a request between teammates, as the human reads it open and close', () => {
  assert.deepEqual(describeRequestChange(opened), { actor: 'alice', type: 'code_review_request', text: 'asks bob (review request review-abc): Parser fix (files: src/parser.ts)' });
  const approved: RequestRecord = { ...opened, state: 'approved', decided_by: 'bob', decided_at: '2030-01-01T10:01:00.000Z', note: 'Looks right' };
  assert.deepEqual(describeRequestChange(approved), { actor: 'bob', type: 'code_review_response', text: 'approved review request review-abc from alice: Looks right' });
  const expired: RequestRecord = { ...opened, state: 'expired', decided_by: 'deadline', note: 'no review within 10 min; alice was told' };
  assert.equal(describeRequestChange(expired).text, 'review request review-abc from alice to bob expired: no review within 10 min; alice was told');
  assert.deepEqual(asOpened(approved), { ...opened, decided_at: undefined, decided_by: undefined, note: undefined });
});
