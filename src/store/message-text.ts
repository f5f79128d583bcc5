import { MESSAGE_ID_PATTERN, MAX_MESSAGE_BYTES, type Envelope } from '../protocol/index.js';

/**
 * A message as every backend stores it: its JSON text, checked for what a transport itself
 * relies on, its id (the dedupe key) and the size limit. Content is not re-validated here:
 * senders build envelopes from checked drafts, and a consumer zod-parses every message it
 * reads, setting aside what fails with the reason; a full parse here would double each
 * sender's CPU per message.
 */
export function messageText(agent: string, envelope: Envelope): string {
  if (!MESSAGE_ID_PATTERN.test(envelope.id)) throw new Error(`refusing to deliver to ${agent}: '${envelope.id}' is not a message id`);
  const text = JSON.stringify(envelope);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_MESSAGE_BYTES) throw new Error(`refusing to deliver a ${bytes}-byte message to ${agent}: the limit is ${MAX_MESSAGE_BYTES} bytes`);
  return text;
}
