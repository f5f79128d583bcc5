import { inertLine, inertText, oneLine } from '../lib/index.js';
import { compactionLine } from './format.js';
import type { TranscriptEntry, TranscriptLive } from './transcript.js';

// A teammate's transcript as text: `teams logs` prints it, the REPL's view of a teammate shows
// the same words. A model wrote most of it, so every part is made inert here.

/** How much of a tool's input and of its result's first line one entry shows. */
const INPUT_CHARS = 120;
const RESULT_CHARS = 160;

/** A tool's result as one line: its first non-blank line, and how many more there were. */
function resultLine(result: string): string {
  const lines = result.split('\n').filter((line) => line.trim() !== '');
  const first = lines[0];
  if (first === undefined) return '(no output)';
  const more = lines.length - 1;
  return `${oneLine(first, RESULT_CHARS)}${more > 0 ? ` (+${more} line${more === 1 ? '' : 's'})` : ''}`;
}

/** `⚙ bash {"command":"ls"}`: a call as one line. */
function callLine(name: string, input: Record<string, unknown>): string {
  return `⚙ ${inertLine(name)} ${oneLine(JSON.stringify(input), INPUT_CHARS)}`;
}

/** The words of an entry that is news about the agent rather than its own: the REPL's view says the same. */
export function eventSentence(entry: Extract<TranscriptEntry, { kind: 'status' | 'stopped' | 'compacted' }>, agent: string): string {
  switch (entry.kind) {
    case 'status':
      return `${inertLine(agent)} is ${inertLine(entry.status)}`;
    case 'stopped':
      return `turn stopped: ${inertLine(entry.reason)}`;
    case 'compacted':
      return inertLine(compactionLine(agent, entry.before, entry.after, entry.reason));
  }
}

/**
 * One entry as text: one line each, but for the agent's own words, which keep their lines.
 * `agent` names whose transcript it is, for its status lines ("· alice is working").
 */
export function formatTranscriptEntry(entry: TranscriptEntry, agent: string): string {
  switch (entry.kind) {
    case 'text':
      return inertText(entry.text);
    case 'input':
      return `» ${oneLine(entry.text, 400)}`;
    case 'tool':
      return `${callLine(entry.name, entry.input)} ${entry.isError ? '→ ✗ ' : '→ '}${resultLine(entry.result)}`;
    case 'status':
      return `· ${eventSentence(entry, agent)}`;
    case 'stopped':
      return `■ ${eventSentence(entry, agent)}`;
    case 'compacted':
      return `⇣ ${eventSentence(entry, agent)}`;
    case 'error':
      return `✗ ${inertLine(entry.text)}`;
    case 'raw':
      return `│ ${inertLine(entry.text)}`;
  }
}

/** What is still under way when a log ends: the text so far, the calls with no result yet. */
export function formatTranscriptLive(live: TranscriptLive): string[] {
  const lines: string[] = [];
  if (live.text.trim() !== '') lines.push(`${inertText(live.text.trim())} …`);
  for (const call of live.calls) lines.push(`${callLine(call.name, call.input)} … running`);
  return lines;
}
