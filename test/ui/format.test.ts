import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { countdown, firstRows, lastRows, longerThanExpanded, tokens } from '../../src/ui/format.js';
import { keyValues } from '../../src/protocol/kinds/text.js';
import { oneLine } from '../../src/lib/terminal-text.js';
import { iso, NOW } from './fixtures.js';

describe('ui formatting', () => {
  test('one line, tool input, tokens, countdown', () => {
    assert.equal(oneLine('a\n  b\tc', 100), 'a b c');
    assert.equal(oneLine('x'.repeat(20), 10), `${'x'.repeat(9)}…`);
    assert.equal(keyValues({ name: 'alice', plan_mode: true, n: 2 }), 'name=alice plan_mode=true n=2');
    assert.deepEqual([tokens(999), tokens(12_345), tokens(2_500_000)], ['999', '12.3k', '2.50M']);
    assert.equal(countdown(iso(299_500), NOW), '5:00');
    assert.equal(countdown(iso(61_000), NOW), '1:01');
    assert.equal(countdown(iso(-5_000), NOW), '0:00');
    assert.equal(countdown(iso(2 * 3_600_000 + 5 * 60_000), NOW), '2h05m');
  });

  test('lastRows keeps the end that fits the rows, long lines counted by their wrapped rows', () => {
    assert.deepEqual(lastRows('a\nb\nc', 2, 10), { text: 'b\nc', cut: true });
    assert.deepEqual(lastRows('short', 3, 10), { text: 'short', cut: false });
    const long = 'x'.repeat(95);
    assert.deepEqual(lastRows(long, 3, 10), { text: 'x'.repeat(30), cut: true }, 'one long line: only its last 3 rows');
    assert.deepEqual(lastRows(`head\n${'y'.repeat(25)}`, 3, 10), { text: 'y'.repeat(25), cut: true });
  });

  test('firstRows keeps the start; longerThanExpanded judges the queue view', () => {
    assert.deepEqual(firstRows('a\nb\nc', 2, 10), { text: 'a\nb', cut: true });
    assert.deepEqual(firstRows('z'.repeat(25), 2, 10), { text: 'z'.repeat(20), cut: true });
    assert.deepEqual(firstRows('ok', 2, 10), { text: 'ok', cut: false });
    assert.equal(longerThanExpanded('1. a\n2. b'), false);
    assert.equal(longerThanExpanded(Array.from({ length: 20 }, (_, i) => `${i}. step`).join('\n')), true);
  });
});
