import type { LogLine } from '../store/index.js';

/**
 * An agent's transcript, folded from its log: what a person reads of its session. Streamed
 * text becomes one block per stretch of text, a tool call and its result one entry. Pure, so
 * the REPL's view and `teams logs` show the same thing, and a view can be folded a batch at a
 * time from wherever it last read.
 */
export type TranscriptEntry =
  /** The agent's own words, one finished stretch of them. */
  | { kind: 'text'; text: string }
  /** What entered its conversation as input: a notice of a message, the task, the human's words. */
  | { kind: 'input'; text: string }
  | { kind: 'tool'; name: string; input: Record<string, unknown>; result: string; isError: boolean }
  | { kind: 'status'; status: string }
  /** A turn that ended other than by finishing (interrupted, over budget, at the turn cap). */
  | { kind: 'stopped'; reason: string }
  | { kind: 'compacted'; before: number; after: number; reason: string }
  | { kind: 'error'; text: string }
  /** A line of the log that is not an event: a crash's stack trace, say. */
  | { kind: 'raw'; text: string };

export type RunningCall = { id: string; name: string; input: Record<string, unknown> };

/** What is under way: text still streaming, tools still running. Shown live, never final. */
export type TranscriptLive = { text: string; calls: RunningCall[] };

export type TranscriptFold = TranscriptLive & {
  /** Whether this model call has streamed any text: a call that did not gives its text whole at its end. */
  streamed: boolean;
};

export const EMPTY_FOLD: TranscriptFold = Object.freeze({ text: '', calls: [], streamed: false });

/** The idle reasons that are an ordinary end of a turn, not worth a line. */
const ORDINARY_ENDS = new Set(['end_turn', 'waiting']);

/** Fold log lines into the entries they finish, and what is left under way. */
export function foldLog(fold: TranscriptFold, lines: readonly LogLine[]): { fold: TranscriptFold; entries: TranscriptEntry[] } {
  let { text, calls, streamed } = fold;
  const entries: TranscriptEntry[] = [];
  const flushText = () => {
    if (text.trim() !== '') entries.push({ kind: 'text', text: text.trim() });
    text = '';
  };
  for (const line of lines) {
    switch (line.type) {
      case 'turn_start':
        flushText();
        streamed = false;
        break;
      case 'text_delta':
        text += line.text;
        streamed = true;
        break;
      case 'tool_call':
        flushText();
        calls = [...calls, { id: line.id, name: line.name, input: line.input }];
        break;
      case 'tool_result': {
        // A view that started reading mid-log may never have seen the call.
        const call = calls.find((c) => c.id === line.id);
        calls = calls.filter((c) => c.id !== line.id);
        entries.push({ kind: 'tool', name: line.name, input: call?.input ?? {}, result: line.content, isError: line.isError });
        break;
      }
      case 'turn_end':
        if (!streamed && text === '') text = line.text;
        flushText();
        break;
      case 'input':
        flushText();
        entries.push({ kind: 'input', text: line.text });
        break;
      case 'idle':
        flushText();
        // A call left without a result (an interrupt between the two) is over all the same.
        for (const call of calls) entries.push({ kind: 'tool', name: call.name, input: call.input, result: 'no result (the turn ended first)', isError: true });
        calls = [];
        if (!ORDINARY_ENDS.has(line.reason)) entries.push({ kind: 'stopped', reason: line.reason });
        break;
      case 'status':
        entries.push({ kind: 'status', status: line.status });
        break;
      case 'compacted':
        entries.push({ kind: 'compacted', before: line.before, after: line.after, reason: line.reason });
        break;
      case 'error':
      case 'compaction_skipped':
        entries.push({ kind: 'error', text: line.message });
        break;
      case 'problem':
        entries.push({ kind: 'error', text: `${line.what}: ${line.reason}` });
        break;
      case 'raw':
        entries.push({ kind: 'raw', text: line.text });
        break;
    }
  }
  return { fold: { text, calls, streamed }, entries };
}
