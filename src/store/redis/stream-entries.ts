import * as z from 'zod';
import { inertLine, describeIssues } from '../../lib/index.js';

/**
 * One entry of a Redis stream as read back: its id and its fields. `fields` is null for an
 * entry a consumer group still lists as pending after it was deleted (XREADGROUP from 0).
 */
export type StreamEntry = { id: string; fields: ReadonlyMap<string, string> | null };

// Raw RESP3 replies (the connection speaks RESP3): an entry is [id, [field, value, …]].
const RawEntry = z.tuple([z.string(), z.array(z.string()).nullable()]);
const RawEntries = z.array(RawEntry);
/** XREAD / XREADGROUP: a map of stream key to entries, or null when nothing came. */
const RawStreams = z.record(z.string(), RawEntries).nullable();

function entryOf([id, flat]: z.infer<typeof RawEntry>): StreamEntry {
  if (flat === null) return { id, fields: null };
  const fields = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) fields.set(flat[i] ?? '', flat[i + 1] ?? '');
  return { id, fields };
}

function parsed<T>(schema: z.ZodType<T>, reply: unknown, command: string): T {
  const result = schema.safeParse(reply);
  if (!result.success) throw new Error(`Redis answered ${command} with something that is not stream entries: ${inertLine(describeIssues(result.error, 'reply'))}`);
  return result.data;
}

/** The reply of XRANGE / XREVRANGE as entries. */
export function rangeEntries(reply: unknown, command = 'XRANGE'): StreamEntry[] {
  return parsed(RawEntries, reply, command).map(entryOf);
}

/** The reply of XREAD / XREADGROUP as each stream's entries (streams with none are left out). */
export function streamsEntries(reply: unknown, command = 'XREAD'): Map<string, StreamEntry[]> {
  const streams = parsed(RawStreams, reply, command) ?? {};
  return new Map(Object.entries(streams).map(([key, entries]) => [key, entries.map(entryOf)]));
}

/** The one field `name` of an entry, or undefined when it has none (deleted, or not written by us). */
export function fieldOf(entry: StreamEntry, name: string): string | undefined {
  return entry.fields?.get(name);
}
