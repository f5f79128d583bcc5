import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { diffLines, splitLines, toHunks, type DiffOp } from '../../src/lib/line-diff.js';

/** Applying a diff gives back both sides: the property any correct diff has. */
function sides(ops: DiffOp[]): { before: string[]; after: string[] } {
  return { before: ops.filter((o) => o.op !== 'add').map((o) => o.text), after: ops.filter((o) => o.op !== 'remove').map((o) => o.text) };
}

describe('line diff', () => {
  test('splitLines: a final newline ends the last line', () => {
    assert.deepEqual(splitLines(''), []);
    assert.deepEqual(splitLines('a\nb\n'), ['a', 'b']);
    assert.deepEqual(splitLines('a\n\n'), ['a', '']);
  });

  test('a changed middle line is one removal and one addition, the rest kept', () => {
    const ops = diffLines(['a', 'b', 'c'], ['a', 'B', 'c']);
    assert.deepEqual(ops, [{ op: 'same', text: 'a' }, { op: 'remove', text: 'b' }, { op: 'add', text: 'B' }, { op: 'same', text: 'c' }]);
  });

  test('the diff is a shortest one and reproduces both sides', () => {
    const before = ['x', 'a', 'b', 'c', 'd', 'y'];
    const after = ['a', 'c', 'q', 'd', 'b', 'y'];
    const ops = diffLines(before, after);
    assert.deepEqual(sides(ops), { before, after });
    // LCS of the two is a,c,d,y (length 4): 2 removals and 2 additions.
    assert.equal(ops.filter((o) => o.op === 'same').length, 4);
  });

  test('past the table limit the middle is replaced whole, still correct', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `old ${i}`);
    const after = Array.from({ length: 3000 }, (_, i) => (i % 2 ? `old ${i}` : `new ${i}`));
    const ops = diffLines(['head', ...before, 'tail'], ['head', ...after, 'tail']);
    assert.deepEqual(sides(ops), { before: ['head', ...before, 'tail'], after: ['head', ...after, 'tail'] });
  });

  test('hunks: 3 lines of context, near changes merged, far ones apart, headers as diff prints them', () => {
    const before = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    const after = [...before];
    after[4] = 'five';
    after[6] = 'seven';
    after[24] = 'twenty-five';
    const hunks = toHunks(diffLines(before, after));
    assert.deepEqual(hunks.map((h) => [h.oldStart, h.oldCount, h.newStart, h.newCount]), [[2, 9, 2, 9], [22, 7, 22, 7]]);
    assert.deepEqual(hunks[0]?.ops[0], { op: 'same', text: 'line 2' });
    assert.deepEqual(toHunks(diffLines(['a'], ['a'])), []);
  });

  test('hunks: a new file and an emptied file start at line 0 on their empty side', () => {
    assert.deepEqual(toHunks(diffLines([], ['a', 'b'])).map((h) => [h.oldStart, h.oldCount, h.newStart, h.newCount]), [[0, 0, 1, 2]]);
    assert.deepEqual(toHunks(diffLines(['a'], [])).map((h) => [h.oldStart, h.oldCount, h.newStart, h.newCount]), [[1, 1, 0, 0]]);
  });
});
