import { Envelope } from '../../../protocol/index.js';
import { describeIssues } from '../../../lib/index.js';

export type ParsedText = { kind: 'message'; envelope: Envelope } | { kind: 'problem'; reason: string };

/** One message's JSON text as an envelope, or why it is not one. Never throws. */
export function parseEnvelope(text: string): ParsedText {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'problem', reason: 'not valid JSON (torn or corrupt)' };
  }
  const parsed = Envelope.safeParse(value);
  if (!parsed.success) return { kind: 'problem', reason: `not a valid message: ${describeIssues(parsed.error, 'message')}` };
  return { kind: 'message', envelope: parsed.data };
}
