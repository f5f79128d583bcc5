import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addSpent, addUsage, costOf, NOTHING_SPENT, priceOf, spentOn, tokensOf, ZERO_USAGE, type TokenUsage } from '../../src/model/usage.js';
import { OFFLINE_MODEL } from '../../src/offline/model-id.js';

const MILLION: TokenUsage = { input_tokens: 1_000_000, output_tokens: 1_000_000, cache_read_tokens: 1_000_000, cache_write_tokens: 1_000_000 };

describe('usage and cost', () => {
  test('cost from the price table; dated ids priced as their model', () => {
    assert.equal(costOf('claude-sonnet-5-5', MILLION), 2 + 10 + 2.5 + 0.1);
    assert.equal(costOf('claude-haiku-4-5-20251001', { ...ZERO_USAGE, output_tokens: 2_000 }), 0.01);
    assert.deepEqual(priceOf('claude-haiku-4-5-20251001'), priceOf('claude-haiku-4-5'));
  });

  test('the offline model costs nothing; an unknown model has no cost', () => {
    assert.equal(costOf(OFFLINE_MODEL, MILLION), 0);
    assert.equal(costOf('claude-unknown-9', MILLION), undefined);
    assert.equal(priceOf('claude-sonnet-5-5-turbo'), undefined);
  });

  test('addUsage sums every field', () => {
    assert.deepEqual(addUsage(MILLION, { input_tokens: 1, output_tokens: 2, cache_read_tokens: 3, cache_write_tokens: 4 }), {
      input_tokens: 1_000_001,
      output_tokens: 1_000_002,
      cache_read_tokens: 1_000_003,
      cache_write_tokens: 1_000_004,
    });
  });

  test('spending adds up per call, each priced as its own model; one unpriced call makes the sum\'s cost unknown', () => {
    const turn = { input_tokens: 100, output_tokens: 10, cache_read_tokens: 1000, cache_write_tokens: 0 };
    const two = addSpent(spentOn('claude-sonnet-5-5', turn), spentOn('claude-haiku-4-5', turn));
    assert.deepEqual(two.usage, { input_tokens: 200, output_tokens: 20, cache_read_tokens: 2000, cache_write_tokens: 0 });
    assert.ok(Math.abs((two.cost ?? NaN) - ((100 * 2 + 10 * 10 + 1000 * 0.1) + (100 * 1 + 10 * 5 + 1000 * 0.1)) / 1e6) < 1e-12);
    assert.equal(tokensOf(two.usage), 2220);
    assert.deepEqual(addSpent(NOTHING_SPENT, spentOn(OFFLINE_MODEL, turn)), { usage: turn, cost: 0 });
    assert.equal(addSpent(two, spentOn('mystery-model', turn)).cost, undefined);
    assert.equal(addSpent(spentOn('mystery-model', turn), two).cost, undefined);
  });
});
