/**
 * A line-based diff and its unified hunks, for showing a human what a file change does.
 *
 * The common head and tail are taken off first (most edits touch a few lines), and the rest
 * is diffed by a longest-common-subsequence table. That table grows with the product of the
 * two middles, so past MAX_TABLE_CELLS the middle is shown as removed and then added whole:
 * still a correct diff (applying it gives the new text), only not the shortest one.
 */

export type DiffOp = { op: 'same' | 'remove' | 'add'; text: string };

/** A unified-diff hunk: 1-based starts, as `@@ -oldStart,oldCount +newStart,newCount @@` prints them. */
export type Hunk = { oldStart: number; oldCount: number; newStart: number; newCount: number; ops: DiffOp[] };

const MAX_TABLE_CELLS = 4_000_000;

/** A text's lines; a final newline ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function lcsMiddle(a: string[], b: string[]): DiffOp[] {
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_TABLE_CELLS) {
    return [...a.map((text): DiffOp => ({ op: 'remove', text })), ...b.map((text): DiffOp => ({ op: 'add', text }))];
  }
  // suffix[i][j]: the LCS length of a[i..] and b[j..], one flat array of (n+1)*(m+1).
  const width = m + 1;
  const suffix = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      suffix[i * width + j] = a[i] === b[j] ? (suffix[(i + 1) * width + j + 1] as number) + 1 : Math.max(suffix[(i + 1) * width + j] as number, suffix[i * width + j + 1] as number);
    }
  }
  const ops: DiffOp[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ op: 'same', text: a[i] as string });
      i++;
      j++;
    } else if ((suffix[(i + 1) * width + j] as number) >= (suffix[i * width + j + 1] as number)) {
      ops.push({ op: 'remove', text: a[i++] as string });
    } else {
      ops.push({ op: 'add', text: b[j++] as string });
    }
  }
  while (i < n) ops.push({ op: 'remove', text: a[i++] as string });
  while (j < m) ops.push({ op: 'add', text: b[j++] as string });
  return ops;
}

/** Every line of `before` and `after` once, in order: kept, removed or added. */
export function diffLines(before: readonly string[], after: readonly string[]): DiffOp[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  const same = (text: string): DiffOp => ({ op: 'same', text });
  return [
    ...before.slice(0, head).map(same),
    ...lcsMiddle(before.slice(head, before.length - tail), after.slice(head, after.length - tail)),
    ...before.slice(before.length - tail).map(same),
  ];
}

/**
 * The changes of `ops` with `context` unchanged lines around each; changes closer than twice
 * that share a hunk. No changes, no hunks.
 */
export function toHunks(ops: readonly DiffOp[], context = 3): Hunk[] {
  const changed = ops.flatMap((o, index) => (o.op === 'same' ? [] : [index]));
  const ranges: Array<[number, number]> = [];
  for (const index of changed) {
    const last = ranges[ranges.length - 1];
    if (last && index - last[1] <= 2 * context + 1) last[1] = index;
    else ranges.push([index, index]);
  }
  // Line numbers before each op, so a hunk knows where it starts.
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const o of ops) {
    oldAt.push(oldLine);
    newAt.push(newLine);
    if (o.op !== 'add') oldLine++;
    if (o.op !== 'remove') newLine++;
  }
  return ranges.map(([first, last]) => {
    const from = Math.max(0, first - context);
    const to = Math.min(ops.length - 1, last + context);
    const part = ops.slice(from, to + 1);
    const oldCount = part.filter((o) => o.op !== 'add').length;
    const newCount = part.filter((o) => o.op !== 'remove').length;
    // As diff(1) prints them: an empty side starts at the line before it.
    const oldStart = (oldAt[from] as number) + (oldCount === 0 ? 0 : 1);
    const newStart = (newAt[from] as number) + (newCount === 0 ? 0 : 1);
    return { oldStart, oldCount, newStart, newCount, ops: part };
  });
}
