import type { Envelope } from './messages.js';
import { specOf } from './kinds/index.js';

/**
 * Protocol messages never reach a model as raw JSON (seed 002: isProtocolMessage is the
 * filter): each kind's file writes the short notice saying who wants what and how to answer,
 * with the request id spelled out so the answer correlates. Humans read the kind's `line`.
 */

export { renderTaskNotification, taskNotificationSummary, type TaskNotification } from './kinds/task-notification.js';

/** The notice a model reads for a message addressed to it. */
export function renderForModel(envelope: Envelope): string {
  return specOf(envelope.type).notice(envelope);
}

/** What a human reads of a message: in the REPL's transcript, the CLI and the audit log. */
export function humanLine(envelope: Envelope): string {
  return specOf(envelope.type).line(envelope);
}

/** Who a person should read as a message's author: the user, relayed by the lead ("user (via lead)"), or its sender. */
export function shownSender(message: { type: Envelope['type']; from: string }): string {
  const { author } = specOf(message.type);
  return author === undefined ? message.from : `${author} (via ${message.from})`;
}
