import type { Envelope } from '../../protocol/index.js';
import { errorMessage } from '../../lib/index.js';
import { parseEnvelope } from '../file/mailbox/envelope-text.js';
import type { SubscribeOptions } from '../transport.js';
import type { StreamEntry } from './stream-entries.js';

/** The field of a mailbox entry that holds the message, as its JSON text. */
export const MESSAGE_FIELD = 'm';

/** A mailbox entry read: a message (with its text as stored), or why it is not one (with what text it had, as evidence). */
export type MailboxEntryRead =
  | { kind: 'message'; entry: string; envelope: Envelope; text: string }
  | { kind: 'problem'; entry: string; reason: string; text: string };

/** One stream entry as a message, or why it is not one. Never throws. */
export function readMailboxEntry(entry: StreamEntry): MailboxEntryRead {
  if (entry.fields === null) return { kind: 'problem', entry: entry.id, reason: 'deleted from the mailbox before it was handled', text: '' };
  const text = entry.fields.get(MESSAGE_FIELD);
  if (text === undefined) return { kind: 'problem', entry: entry.id, reason: `not a message entry (it has no '${MESSAGE_FIELD}' field)`, text: '' };
  const parsed = parseEnvelope(text);
  if (parsed.kind === 'problem') return { kind: 'problem', entry: entry.id, reason: parsed.reason, text };
  return { kind: 'message', entry: entry.id, envelope: parsed.envelope, text };
}

/**
 * What a subscriber makes of an entry: a message it takes, or a problem to set aside. A message
 * `admit` refuses is a problem "refused: <reason>"; an admission check that throws refuses.
 */
export function judgeEntry(entry: StreamEntry, admit: SubscribeOptions['admit']): MailboxEntryRead {
  const read = readMailboxEntry(entry);
  if (read.kind === 'problem' || admit === undefined) return read;
  let refusal: string | undefined;
  try {
    const verdict = admit(read.envelope);
    refusal = verdict.ok ? undefined : verdict.reason;
  } catch (error) {
    refusal = `the admission check failed: ${errorMessage(error)}`;
  }
  return refusal === undefined ? read : { kind: 'problem', entry: read.entry, reason: `refused: ${refusal}`, text: read.text };
}
