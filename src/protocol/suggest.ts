/**
 * "Did you mean …?" for agent names: a mistyped recipient must fail loudly, and the
 * error should point at the member the sender most likely meant.
 */

/**
 * Optimal string alignment distance: Levenshtein plus adjacent transpositions, so
 * 'alcie' is one edit from 'alice' (typing slips swap neighbours more than anything).
 */
export function editDistance(a: string, b: string): number {
  const cols = b.length + 1;
  // One flat row-major table: d[i * cols + j] is the distance between a[0..i) and b[0..j).
  const d = new Array<number>((a.length + 1) * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j] ?? 0;
  for (let i = 0; i <= a.length; i++) d[i * cols] = i;
  for (let j = 0; j <= b.length; j++) d[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i * cols + j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate closest to `input`, if it is close enough to be a plausible typo: at
 * most a third of the longer name's length in edits (at least one). Case is ignored,
 * so 'Alice' suggests 'alice'. Ties go to the earlier candidate, keeping it stable.
 */
export function suggestName(input: string, candidates: readonly string[]): string | undefined {
  const wanted = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    const allowed = Math.max(1, Math.floor(Math.max(wanted.length, candidate.length) / 3));
    if (distance <= allowed && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** "did you mean 'alice'?" for a plausible typo, else undefined; `show` quotes the candidate. */
export function didYouMean(input: string, candidates: readonly string[], show: (name: string) => string = (name) => `'${name}'`): string | undefined {
  const guess = suggestName(input, candidates);
  return guess === undefined ? undefined : `did you mean ${show(guess)}?`;
}

/** " (did you mean 'alice'?)" when a member is close, else " (members: …)": what follows "no member named …". */
export function memberHint(input: string, members: readonly string[]): string {
  return ` (${didYouMean(input, members) ?? `members: ${members.join(', ')}`})`;
}
