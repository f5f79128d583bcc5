import * as z from 'zod';
import { Usage } from '../protocol/index.js';
import { CompactReason } from './audit.js';
import { MemberStatus } from './roster.js';

/**
 * An agent's log: what its loop did, one JSON object per line, in the order it happened (the
 * agent's events as src/agent/events.ts defines them, its status changes, its problems). It is
 * written by the agent's own process and read by whoever watches it (the REPL's view of a
 * teammate, `teams logs`). It is only ever shown, never obeyed: a line that does not parse is
 * kept as raw text (a crash's stack trace lands here too), so nothing the agent printed is lost.
 */

const at = z.string();
const input = z.record(z.string(), z.unknown());

export const LogEvent = z.discriminatedUnion('type', [
  z.object({ at, type: z.literal('input'), text: z.string() }),
  z.object({ at, type: z.literal('turn_start'), call: z.number() }),
  z.object({ at, type: z.literal('text_delta'), text: z.string() }),
  z.object({ at, type: z.literal('tool_call'), id: z.string(), name: z.string(), input }),
  z.object({ at, type: z.literal('tool_result'), id: z.string(), name: z.string(), content: z.string(), isError: z.boolean() }),
  z.object({ at, type: z.literal('turn_end'), stopReason: z.string(), usage: Usage, text: z.string(), model: z.string() }),
  z.object({ at, type: z.literal('idle'), reason: z.string(), lastText: z.string() }),
  z.object({ at, type: z.literal('error'), message: z.string() }),
  z.object({ at, type: z.literal('compacted'), before: z.number(), after: z.number(), reason: CompactReason, usage: Usage, model: z.string() }),
  z.object({ at, type: z.literal('compaction_skipped'), message: z.string(), usage: Usage, model: z.string() }),
  /** The harness's status, as the roster has it. */
  z.object({ at, type: z.literal('status'), status: MemberStatus }),
  /** Something that failed on the way and was not the model's to handle. */
  z.object({ at, type: z.literal('problem'), what: z.string(), reason: z.string() }),
]);
export type LogEvent = z.infer<typeof LogEvent>;

/** A line of an agent's log as read: an event, or whatever else was printed there. */
export type LogLine = LogEvent | { type: 'raw'; text: string };

/** Never throws: a line that is not an event is raw text. */
export function parseLogLine(text: string): LogLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { type: 'raw', text };
  }
  const event = LogEvent.safeParse(value);
  return event.success ? event.data : { type: 'raw', text };
}

/** An event as its agent hands it over: a log event before it is stamped. */
export type LoggedEvent = LogEvent extends infer E ? (E extends LogEvent ? Omit<E, 'at'> : never) : never;

/**
 * The line an agent's process writes for one event, stamped now. Typed by the schema, so an
 * event the schema could not read back does not compile.
 */
export function logLineOf(event: LoggedEvent, now = new Date()): string {
  return `${JSON.stringify({ at: now.toISOString(), ...event })}\n`;
}

/** A `tail` is a count of lines: a whole number, zero or more. */
export function tailProblem(tail: number): string | undefined {
  return Number.isSafeInteger(tail) && tail >= 0 ? undefined : `tail must be a whole number of lines, not ${String(tail)}`;
}

/** Why a batch cannot be appended to `agent`'s log as it is: a line holding a line break would be two. */
export function lineBreakProblem(agent: string, lines: readonly string[]): string | undefined {
  const broken = lines.findIndex((line) => line.includes('\n'));
  return broken < 0 ? undefined : `cannot append to ${agent}'s log: line ${broken + 1} of the batch holds a line break (append takes each line without one)`;
}
