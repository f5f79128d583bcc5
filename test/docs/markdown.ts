/**
 * Just enough Markdown for the docs test: the code a page shows (fenced blocks and inline
 * spans, where commands are written), its links (outside code), and the anchors its headings
 * make, the way GitHub makes them.
 */

const FENCE = /^\s*(```|~~~)/;

/** The page split into its fenced code blocks and the prose around them, in order. */
function splitFences(text: string): { code: string[]; prose: string[] } {
  const code: string[] = [];
  const prose: string[] = [];
  let inFence = false;
  let block: string[] = [];
  for (const line of text.split('\n')) {
    if (FENCE.test(line)) {
      if (inFence) code.push(block.join('\n'));
      else prose.push(block.join('\n'));
      block = [];
      inFence = !inFence;
      continue;
    }
    block.push(line);
  }
  (inFence ? code : prose).push(block.join('\n'));
  return { code, prose };
}

/** Inline code spans: a run of backticks, then anything up to the same run (they may cross a line). */
const CODE_SPAN = /(`+)([\s\S]*?[^`])\1(?!`)/g;

/** Every piece of code on the page: each fenced block, each line of it apart, and each inline span. */
export function codeOf(text: string): string[] {
  const { code, prose } = splitFences(text);
  const spans = prose.flatMap((part) => [...part.matchAll(CODE_SPAN)].map((match) => match[2] ?? ''));
  return [...code.flatMap((block) => block.split('\n')), ...spans];
}

/** The page without its code, so a link or heading written as an example is not taken for one. */
function proseOf(text: string): string {
  return splitFences(text)
    .prose.map((part) => part.replace(CODE_SPAN, ''))
    .join('\n');
}

/** Targets of `[text](target)` and `![alt](target)` links, as written. */
export function linksOf(text: string): string[] {
  return [...proseOf(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] ?? '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a dash. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a page offers: one per heading (a repeated one gets -1, -2, …), and every `<a id>`. */
export function anchorsOf(text: string): Set<string> {
  const { prose } = splitFences(text);
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose.join('\n').split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1] ?? '');
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+id="([^"]+)"/g)) anchors.add(match[1] ?? '');
  }
  return anchors;
}
