import type { Readable } from 'node:stream';
import { errorMessage } from '../lib/index.js';

/**
 * A teammate's output on a host, carried into the store's agent log: split into complete lines,
 * appended in order (one append at a time, so lines of one stream never overtake each other),
 * and a last line without its line break flushed when the stream ends.
 */
export function pipeLines(stream: Readable, append: (lines: readonly string[]) => Promise<void>, problem: (reason: string) => void): void {
  let partial = '';
  let appending: Promise<void> = Promise.resolve();
  const send = (lines: string[]) => {
    if (lines.length === 0) return;
    appending = appending.then(() => append(lines)).catch((error: unknown) => problem(errorMessage(error)));
  };
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    send(parts.map((line) => line.replace(/\r$/, '')));
  });
  stream.on('end', () => {
    if (partial !== '') send([partial]);
    partial = '';
  });
}
