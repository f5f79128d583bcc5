import type { Command } from 'commander';
import { inertJson } from '../lib/index.js';
import { UsageError } from './errors.js';

/**
 * One JSON shape for every command: `--json` prints one JSON document (a list is one array),
 * `--jsonl` one JSON object per line, which is what a stream (`--follow`, `teams run`) can
 * print as it goes. A followed stream never ends, so it has no one document to print.
 */
export type OutputFlags = { json?: boolean; jsonl?: boolean; follow?: boolean };

export function jsonOptions(command: Command, items: string): Command {
  return command.option('--json', `one JSON array of the ${items}`).option('--jsonl', `one JSON object per line, one per ${items.replace(/s$/, '')}`);
}

/** JSON out, as the flags ask; undefined for text. Refuses --json with --follow, and both flags at once. */
export function jsonSink(flags: OutputFlags, write: (text: string) => void = (text) => process.stdout.write(text)): JsonSink | undefined {
  if (flags.json && flags.jsonl) throw new UsageError('--json or --jsonl: choose one');
  if (flags.json && flags.follow) throw new UsageError('--follow never ends, so it has no one JSON document: use --jsonl');
  if (flags.jsonl) return { add: (item) => write(`${inertJson(item)}\n`), end: () => undefined };
  if (!flags.json) return undefined;
  const items: string[] = [];
  return { add: (item) => items.push(inertJson(item)), end: () => write(`[${items.join(',')}]\n`) };
}

/** `add` each item; `end` once all are added (a `--json` array is written then). */
export type JsonSink = { add(item: unknown): void; end(): void };
