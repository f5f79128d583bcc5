import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';

/**
 * A stack trace with compiled positions turned back into the src/ files and lines they came
 * from, read from the source maps next to the compiled files only now, when a trace is
 * printed. `--enable-source-maps` would map every trace, but it reads and keeps the map of
 * every chunk as it loads: about 12 MiB more in each teammate, for traces it rarely prints.
 */
export function mappedStack(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const stack = error.stack ?? `${error.name}: ${error.message}`;
  // `at fn (file:///…/x.js:12:34)` and `at file:///…/x.js:12:34`.
  return stack.replace(/(file:\/\/\/[^\s()]+?\.js):(\d+):(\d+)/g, (frame: string, url: string, line: string, column: string) =>
    original(url, Number(line), Number(column)) ?? frame);
}

const Payload = z.object({ version: z.number(), sources: z.array(z.string()), names: z.array(z.string()).default([]), mappings: z.string() });

/** Per compiled file, its map (undefined when it has none). */
const maps = new Map<string, SourceMap | undefined>();

function mapOf(url: string): SourceMap | undefined {
  if (!maps.has(url)) {
    let map: SourceMap | undefined;
    try {
      const payload = Payload.parse(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')));
      map = new SourceMap({ ...payload, file: '', sourceRoot: '', sourcesContent: [] });
    } catch {
      map = undefined;
    }
    maps.set(url, map);
  }
  return maps.get(url);
}

/** `path:line:column` in the source, or undefined when no map says. Stack positions count from 1, maps from 0. */
function original(url: string, line: number, column: number): string | undefined {
  const entry = mapOf(url)?.findEntry(line - 1, column - 1);
  if (!entry || !('originalSource' in entry)) return undefined;
  // A map names its sources relative to itself.
  const source = fileURLToPath(new URL(entry.originalSource, `${url}.map`));
  return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
}
