import { closeSync, existsSync, fstatSync, openSync, readSync, writeSync, ftruncateSync } from 'node:fs';
import type * as z from 'zod';
import { describeIssues } from '../../lib/index.js';

/**
 * Append-only JSON-lines files shared by several processes.
 * Each record goes out in one write(2) on an O_APPEND descriptor, so concurrent
 * appenders never interleave; a reader may still see a torn last line (a writer
 * killed mid-write, or a write not yet finished), which it skips and reports.
 */

/**
 * Append records, each one line, in a single write(2). Every batch starts with a newline: a
 * writer SIGKILLed mid-write (one that crosses a page boundary can be cut) leaves a torn line
 * with no newline, and a plain append would glue the next record onto it and lose that too.
 * The leading newline closes any torn line first; the blank lines it leaves are skipped.
 */
export function appendLines(path: string, records: readonly unknown[]): void {
  if (records.length === 0) return;
  const data = Buffer.from(`\n${records.map((r) => JSON.stringify(r)).join('\n')}\n`, 'utf8');
  const fd = openSync(path, 'a');
  try {
    let written = writeSync(fd, data);
    // A regular file takes the whole buffer in one call; loop only as a guard.
    while (written < data.length) written += writeSync(fd, data, written);
  } finally {
    closeSync(fd);
  }
}

export type LineProblem = { line: number; offset: number; reason: string };

export type ReadResult<T> = {
  records: T[];
  /** The line of each record, counted from 1 at `offset`: for reporting where a record was. */
  recordLines: number[];
  /** How many complete lines the read covered (blank ones too): where the next read's line 1 is. */
  lines: number;
  /** Lines that were not valid JSON or not valid records: reported, never fatal. */
  problems: LineProblem[];
  /** Byte offset just past the last complete line: where the next incremental read starts. */
  nextOffset: number;
  /** A partial last line with no newline yet (in flight, or torn by a crash). */
  tornTail: boolean;
};

/**
 * Read complete lines from `offset` on, parsing each with `schema`.
 * Reading stops at the last newline, so a line still being written is never half-read.
 */
export function readLines<T>(path: string, schema: z.ZodType<T>, offset = 0): ReadResult<T> {
  if (!existsSync(path)) return { records: [], recordLines: [], lines: 0, problems: [], nextOffset: 0, tornTail: false };
  const fd = openSync(path, 'r');
  let buffer: Buffer;
  try {
    const size = fstatSync(fd).size;
    if (size <= offset) return { records: [], recordLines: [], lines: 0, problems: [], nextOffset: Math.min(offset, size), tornTail: false };
    buffer = Buffer.alloc(size - offset);
    let got = 0;
    while (got < buffer.length) {
      const n = readSync(fd, buffer, got, buffer.length - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    buffer = buffer.subarray(0, got);
  } finally {
    closeSync(fd);
  }
  const end = buffer.lastIndexOf(0x0a);
  const complete = end < 0 ? '' : buffer.subarray(0, end).toString('utf8');
  const records: T[] = [];
  const recordLines: number[] = [];
  const problems: LineProblem[] = [];
  let lines = 0;
  if (end >= 0) {
    let lineOffset = offset;
    const all = complete.split('\n');
    lines = all.length;
    all.forEach((line, index) => {
      const here = lineOffset;
      lineOffset += Buffer.byteLength(line, 'utf8') + 1;
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        problems.push({ line: index + 1, offset: here, reason: 'not valid JSON (torn or corrupt line)' });
        return;
      }
      const parsed = schema.safeParse(value);
      if (parsed.success) {
        records.push(parsed.data);
        recordLines.push(index + 1);
      } else problems.push({ line: index + 1, offset: here, reason: describeIssues(parsed.error, 'record') });
    });
  }
  return { records, recordLines, lines, problems, nextOffset: offset + end + 1, tornTail: end + 1 < buffer.length };
}

/**
 * Cut a torn tail left by a writer that died mid-line, so the next append starts a clean line.
 * Only the file's single owner may call this (a torn tail in a shared file may be in flight).
 */
export function truncateTornTail(path: string): boolean {
  if (!existsSync(path)) return false;
  const fd = openSync(path, 'r+');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return false;
    const chunk = Buffer.alloc(Math.min(size, 1 << 20));
    readSync(fd, chunk, 0, chunk.length, size - chunk.length);
    if (chunk[chunk.length - 1] === 0x0a) return false;
    const lastNewline = chunk.lastIndexOf(0x0a);
    const keep = lastNewline < 0 ? size - chunk.length : size - chunk.length + lastNewline + 1;
    ftruncateSync(fd, keep);
    return true;
  } finally {
    closeSync(fd);
  }
}
