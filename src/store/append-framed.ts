import { closeSync, openSync, writeSync } from 'node:fs';

/**
 * Like jsonl.appendLines, but every batch starts with a newline. A writer SIGKILLed in the
 * middle of a write that crosses a page boundary leaves a torn line with no newline; a
 * plain append would then glue the next record onto that garbage and lose it too. The
 * leading newline closes any torn line first, so only the torn record is lost (and
 * reported as corrupt), and the blank line it costs otherwise is skipped by readLines.
 */
export function appendFramedLines(path: string, records: readonly unknown[]): void {
  if (records.length === 0) return;
  const data = Buffer.from(`\n${records.map((r) => JSON.stringify(r)).join('\n')}\n`, 'utf8');
  const fd = openSync(path, 'a');
  try {
    let written = writeSync(fd, data);
    while (written < data.length) written += writeSync(fd, data, written);
  } finally {
    closeSync(fd);
  }
}
