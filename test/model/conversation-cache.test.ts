import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costOf } from '../../src/model/usage.js';
import { cacheFigures, runToolSession } from '../helpers/tool-session.js';

/**
 * The benchmark's session (test/bench/prompt-cache.ts), short and untimed, so that losing
 * the rolling breakpoint fails `npm test` and not only the bench. Its figures are exact:
 * the offline server's token estimates are deterministic.
 */

const SONNET = 'claude-sonnet-5-5';

test('a six-call tool session reads most of its input from the cache from the third call on, and costs less than the baseline', async () => {
  const session = { calls: 6, resultChars: 3000, model: SONNET };
  const cached = await runToolSession({ ...session, cacheConversation: true });
  const baseline = await runToolSession({ ...session, cacheConversation: false });

  const fromThird = cacheFigures(cached.slice(2));
  assert.ok(fromThird.readShare >= 0.75, `read from the cache from call 3: ${(fromThird.readShare * 100).toFixed(1)}%`);
  assert.equal(cacheFigures(cached).input_tokens, 0, 'nothing billed at full price: every call ends on a breakpoint');
  const baselineShare = cacheFigures(baseline.slice(2)).readShare;
  assert.ok(baselineShare < 0.5, `the baseline reads only the tools and the system prompt: ${(baselineShare * 100).toFixed(1)}%`);

  const cost = (usages: typeof cached) => costOf(SONNET, cacheFigures(usages)) ?? Number.NaN;
  assert.ok(cost(cached) < cost(baseline), `with ${cost(cached)} < without ${cost(baseline)}`);
});

test('the share is the tokens read over all input tokens: full price, written and read', () => {
  const figures = cacheFigures([
    { input_tokens: 100, output_tokens: 7, cache_write_tokens: 300, cache_read_tokens: 0 },
    { input_tokens: 0, output_tokens: 7, cache_write_tokens: 200, cache_read_tokens: 400 },
  ]);
  assert.deepEqual(figures, { input_tokens: 100, output_tokens: 14, cache_write_tokens: 500, cache_read_tokens: 400, readShare: 0.4 });
  assert.equal(cacheFigures([]).readShare, 0);
});
