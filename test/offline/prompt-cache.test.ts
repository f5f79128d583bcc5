import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CACHE_TTL_MS, LOOKBACK_BLOCKS, MIN_CACHEABLE_TOKENS, PromptCache } from '../../src/offline/prompt-cache.js';
import { MessagesRequest } from '../../src/offline/request.js';
import type { InputUsage } from '../../src/offline/usage-estimate.js';

/** About 100 tokens of text per block, each block different. */
const block = (n: number) => `block ${n} `.padEnd(400, '.');
const SYSTEM = 'You are a careful agent. '.repeat(200);
const MARK = { type: 'ephemeral' } as const;

/**
 * A request whose one user message holds `count` text blocks; `marks` are the blocks (by
 * index) that carry cache_control. The system prompt is long enough to be cacheable alone.
 */
function body(count: number, marks: readonly number[], model = 'claude-sonnet-5-5'): MessagesRequest {
  const content = Array.from({ length: count }, (_, n) => ({ type: 'text', text: block(n), ...(marks.includes(n) ? { cache_control: MARK } : {}) }));
  return MessagesRequest.parse({ model, max_tokens: 10, system: [{ type: 'text', text: SYSTEM }], messages: [{ role: 'user', content }] });
}

const total = (usage: InputUsage) => usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;

function clock() {
  let now = Date.parse('2026-12-03T12:00:00Z');
  return { now: () => now, pass: (ms: number) => (now += ms) };
}

describe('PromptCache (the offline model keeps to the API caching rules)', () => {
  test('the first request writes up to its breakpoint, the same prefix is then read, and what follows is plain input', () => {
    const cache = new PromptCache();
    const first = cache.account(body(30, [20]));
    assert.equal(first.cache_read_input_tokens, 0);
    assert.ok(first.cache_creation_input_tokens > 2000);
    assert.ok(first.input_tokens > 800 && first.input_tokens < 1200, `about 9 blocks after the breakpoint, got ${first.input_tokens}`);
    const second = cache.account(body(30, [20]));
    assert.deepEqual(second, { input_tokens: first.input_tokens, cache_creation_input_tokens: 0, cache_read_input_tokens: first.cache_creation_input_tokens });
  });

  test('a rolling breakpoint: the next request reads what the previous wrote and writes only the new blocks', () => {
    const cache = new PromptCache();
    const first = cache.account(body(10, [9]));
    const second = cache.account(body(13, [12]));
    assert.equal(second.cache_read_input_tokens, first.cache_creation_input_tokens);
    assert.ok(second.cache_creation_input_tokens > 250 && second.cache_creation_input_tokens < 350, `three blocks written, got ${second.cache_creation_input_tokens}`);
    assert.equal(second.input_tokens, 0);
  });

  test(`an entry is found up to ${LOOKBACK_BLOCKS} blocks before a breakpoint, not further`, () => {
    const cache = new PromptCache();
    const first = cache.account(body(10, [9]));
    const near = cache.account(body(10 + LOOKBACK_BLOCKS, [9 + LOOKBACK_BLOCKS]));
    assert.equal(near.cache_read_input_tokens, first.cache_creation_input_tokens);

    const fresh = new PromptCache();
    const start = fresh.account(body(10, [9]));
    const far = fresh.account(body(11 + LOOKBACK_BLOCKS, [10 + LOOKBACK_BLOCKS]));
    assert.equal(far.cache_read_input_tokens, 0, 'one block further back than the lookback is a miss');
    assert.equal(far.cache_creation_input_tokens, total(far));
    // A second breakpoint where the previous request ended finds it however far back it is.
    const marked = fresh.account(body(12 + LOOKBACK_BLOCKS, [9, 11 + LOOKBACK_BLOCKS]));
    assert.ok(marked.cache_read_input_tokens > start.cache_creation_input_tokens, 'the longer entry the miss wrote is read');
    const both = new PromptCache();
    const before = both.account(body(10, [9]));
    assert.equal(both.account(body(40, [9, 39])).cache_read_input_tokens, before.cache_creation_input_tokens);
  });

  test('a prefix is readable only up to a breakpoint: without one nothing is read, and a later entry is not reached from an earlier breakpoint', () => {
    const cache = new PromptCache();
    cache.account(body(30, [29]));
    const unmarked = cache.account(body(30, []));
    assert.deepEqual(unmarked, { input_tokens: total(unmarked), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    const earlier = cache.account(body(30, [5]));
    assert.equal(earlier.cache_read_input_tokens, 0, 'the entry at block 29 is more than the lookback after block 5');
    assert.ok(earlier.cache_creation_input_tokens > 0);
  });

  test('where the markers sit does not change the prefix, and a string content is the text block it stands for', () => {
    const cache = new PromptCache();
    const first = cache.account(body(10, [3, 9]));
    assert.equal(cache.account(body(12, [11])).cache_read_input_tokens, first.cache_creation_input_tokens);

    const asString = MessagesRequest.parse({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: SYSTEM }, { role: 'assistant', content: [{ type: 'text', text: 'ok', cache_control: MARK }] }] });
    const asBlock = MessagesRequest.parse({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [{ type: 'text', text: SYSTEM, cache_control: MARK }] }] });
    const written = cache.account(asBlock).cache_creation_input_tokens;
    assert.equal(cache.account(asString).cache_read_input_tokens, written);
  });

  test(`a prefix under ${MIN_CACHEABLE_TOKENS} tokens is not cached`, () => {
    const cache = new PromptCache();
    const short = MessagesRequest.parse({ model: 'm', max_tokens: 1, system: [{ type: 'text', text: 'Be brief.', cache_control: MARK }], messages: [{ role: 'user', content: 'hi' }] });
    for (let i = 0; i < 2; i++) {
      const usage = cache.account(short);
      assert.deepEqual(usage, { input_tokens: total(usage), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    }
  });

  test('an entry lives five minutes, and each read starts them again', () => {
    const time = clock();
    const cache = new PromptCache({ now: time.now });
    const written = cache.account(body(10, [9])).cache_creation_input_tokens;
    time.pass(CACHE_TTL_MS - 1);
    assert.equal(cache.account(body(10, [9])).cache_read_input_tokens, written, 'still there just before five minutes');
    time.pass(CACHE_TTL_MS - 1);
    assert.equal(cache.account(body(10, [9])).cache_read_input_tokens, written, 'the read refreshed it');
    time.pass(CACHE_TTL_MS);
    const expired = cache.account(body(10, [9]));
    assert.equal(expired.cache_read_input_tokens, 0, 'five minutes unread and it is gone');
    assert.equal(expired.cache_creation_input_tokens, written);
  });

  test('entries are per model', () => {
    const cache = new PromptCache();
    const written = cache.account(body(10, [9], 'claude-sonnet-5-5')).cache_creation_input_tokens;
    const other = cache.account(body(10, [9], 'claude-haiku-4-5'));
    assert.deepEqual([other.cache_read_input_tokens, other.cache_creation_input_tokens], [0, written]);
  });
});

describe('request validation of cache breakpoints', () => {
  const text = (t: string) => ({ type: 'text', text: t, cache_control: MARK });
  test('more than four breakpoints is refused, with the API wording', () => {
    const parsed = MessagesRequest.safeParse({ model: 'm', max_tokens: 1, system: [text('s')], messages: [{ role: 'user', content: [text('a'), text('b'), text('c'), text('d')] }] });
    assert.equal(parsed.success, false);
    assert.match(parsed.error?.message ?? '', /A maximum of 4 blocks with cache_control may be provided\. Found 5\./);
  });
  test('a breakpoint on an empty text block or a thinking block is refused', () => {
    const empty = MessagesRequest.safeParse({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: [text('')] }] });
    assert.match(empty.error?.message ?? '', /cache_control cannot be set for empty text blocks/);
    const thinking = { type: 'thinking', thinking: 'hmm', signature: 'sig', cache_control: MARK };
    const parsed = MessagesRequest.safeParse({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: [thinking] }] });
    assert.match(parsed.error?.message ?? '', /cache_control cannot be set for thinking blocks/);
  });
});
