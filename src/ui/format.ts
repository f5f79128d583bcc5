
/** "4:59" until a deadline, "0:00" once it has passed: the approval queue's countdown. */
export function countdown(deadlineIso: string, now: number): string {
  const seconds = Math.max(0, Math.ceil((Date.parse(deadlineIso) - now) / 1000));
  const minutes = Math.floor(seconds / 60);
  if (minutes >= 60) return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}

/** 12345 → "12.3k": header-sized token counts. */
export function tokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(1)}k`;
  return `${(count / 1_000_000).toFixed(2)}M`;
}

/** Rows `line` takes in a terminal `width` columns wide (at least one, for an empty line). */
function rowsOf(line: string, width: number): number {
  return Math.max(1, Math.ceil(line.length / Math.max(1, width)));
}

/**
 * The end of `text` that fits in `rows` terminal rows: the live area must stay shorter than the
 * screen, or Ink repaints everything (the whole transcript) on every frame.
 */
export function lastRows(text: string, rows: number, width: number): { text: string; cut: boolean } {
  const lines = text.split('\n');
  const kept: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0 && used < rows; i--) {
    const line = lines[i] ?? '';
    const room = rows - used;
    const needed = rowsOf(line, width);
    kept.unshift(needed <= room ? line : line.slice(line.length - room * width));
    used += Math.min(needed, room);
  }
  const shown = kept.join('\n');
  return { text: shown, cut: shown.length < text.length };
}

/** The start of `text` that fits in `rows` terminal rows; `cut` when some of it is left out. */
export function firstRows(text: string, rows: number, width: number): { text: string; cut: boolean } {
  const kept: string[] = [];
  let used = 0;
  for (const line of text.split('\n')) {
    if (used >= rows) break;
    const room = rows - used;
    const needed = rowsOf(line, width);
    kept.push(needed <= room ? line : line.slice(0, room * width));
    used += Math.min(needed, room);
  }
  const shown = kept.join('\n');
  return { text: shown, cut: shown.length < text.length };
}

/** How many rows `v` shows of a request in the queue; longer ones are also printed in full above. */
export const EXPANDED_ROWS = 12;

/** How many lines of a permission's preview `v` shows in the queue; a longer one is also printed in full above. */
export const PREVIEW_ROWS = 12;

/** Whether a request's text may not fit its expanded view (judged for a narrow, 60-column view). */
export function longerThanExpanded(text: string): boolean {
  return firstRows(text, EXPANDED_ROWS, 60).cut;
}
