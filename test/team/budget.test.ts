import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costOf } from '../../src/model/usage.js';
import { describeUsage, memberCost, pricedTurn } from '../../src/team/budget.js';

const TURN = { input_tokens: 1000, output_tokens: 100, cache_read_tokens: 5000, cache_write_tokens: 200 };
const totals = { ...TURN, tool_uses: 0, duration_ms: 0 };

test('a turn is priced as the model that answered it', () => {
  assert.deepEqual(pricedTurn('claude-haiku-4-5', TURN), { ...TURN, cost_usd: (1000 * 1 + 100 * 5 + 5000 * 0.1 + 200 * 1.25) / 1e6 });
  assert.equal(pricedTurn('claude-sonnet-5-5', TURN).cost_usd, costOf('claude-sonnet-5-5', TURN));
  assert.equal(pricedTurn('no-such-model', TURN).cost_usd, null);
});

test("a member's cost: its turns' prices when recorded, else its totals at its model's price", () => {
  const haiku = pricedTurn('claude-haiku-4-5', TURN).cost_usd ?? Number.NaN;
  assert.equal(memberCost({ model: 'claude-haiku-4-5', usage: totals }), haiku);
  assert.equal(memberCost({ model: 'claude-haiku-4-5', usage: { ...totals, cost_usd: 0.125 } }), 0.125, 'recorded turn prices win');
  assert.equal(memberCost({ model: 'claude-haiku-4-5', usage: { ...totals, cost_usd: null } }), undefined);
  assert.equal(memberCost({ model: null, usage: totals }), undefined);
  assert.equal(memberCost({ model: null, usage: undefined }), 0);
  assert.equal(describeUsage({ model: 'claude-haiku-4-5', usage: totals }), `6300 tokens, $${haiku.toFixed(4)}`);
  assert.equal(describeUsage({ model: 'claude-haiku-4-5', usage: { ...totals, cost_usd: null } }), '6300 tokens, cost unknown');
});
