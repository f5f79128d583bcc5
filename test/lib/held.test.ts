import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Held } from '../../src/lib/held.js';

describe('Held', () => {
  test('keeps items until a handler is attached, then hands them over in order, and later ones at once', () => {
    const held = new Held<number>();
    held.push(1);
    held.push(2);
    const seen: number[] = [];
    held.attach((n) => seen.push(n));
    assert.deepEqual(seen, [1, 2]);
    held.push(3);
    assert.deepEqual(seen, [1, 2, 3]);
  });

  test('an item pushed while the held ones are handed over comes after them', () => {
    const held = new Held<string>();
    held.push('a');
    held.push('b');
    const seen: string[] = [];
    held.attach((item) => {
      seen.push(item);
      if (item === 'a') held.push('from a');
    });
    assert.deepEqual(seen, ['a', 'b', 'from a']);
  });

  test('takes one handler only', () => {
    const held = new Held<number>();
    held.attach(() => undefined);
    assert.throws(() => held.attach(() => undefined), /attached already/);
  });
});
