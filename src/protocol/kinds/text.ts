import { oneLine } from '../../lib/index.js';

/** The small pieces of wording every kind's notice and line are made of. */

/** End a clause with a full stop unless it already ends a sentence. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…:]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** ": reason" when there is one, else nothing: optional texts read naturally either way. */
export function colon(text: string | undefined): string {
  const trimmed = text?.trim() ?? '';
  return trimmed.length > 0 ? `: ${trimmed}` : '';
}

/** "[type id from alice]": how every notice of a protocol message begins. */
export function header(envelope: { type: string; from: string }, id?: string): string {
  return `[${envelope.type}${id === undefined ? '' : ` ${id}`} from ${envelope.from}]`;
}

export const isBlank = (text: string | undefined): boolean => (text ?? '').trim().length === 0;

/** A tool's input as a short `key=value` line: the whole JSON is rarely worth a screen line. */
export function keyValues(input: Record<string, unknown>, max = 80): string {
  const parts = Object.entries(input).map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return oneLine(parts.join(' '), max);
}

/** A short summary line from free text: its first line, cut to fit lists. */
export function summarize(body: string, max = 80): string {
  const firstLine = body.trim().split('\n', 1)[0] ?? '';
  return firstLine.length <= max ? firstLine : `${firstLine.slice(0, max - 1)}…`;
}
