import * as z from 'zod';
import { envelopeOf } from '../fields.js';
import { defineKind } from './spec.js';
import { colon, header, sentence } from './text.js';

/** A teammate's turn ended: it waits for instructions, and says what it last did unless it already reported. */

const Idle = envelopeOf('idle_notification', { reason: z.string().min(1), summary: z.string().optional() });

function notice(e: z.output<typeof Idle>): string {
  return `${header(e)} ${sentence(`${e.from} is idle${colon(e.reason)}`)}${e.summary?.trim() ? ` Last: ${e.summary.trim()}` : ''}`;
}

export const idleNotification = defineKind(Idle, {
  direction: 'to_lead',
  role: { class: 'notification' },
  notice,
  line: (e) => (e.summary ? `idle: ${e.summary}` : `idle (${e.reason})`),
  // An idle teammate that already reported has nothing new to say; one that did not forwards its last words.
  atLead: (e) => (e.summary ? { notice: notice(e) } : {}),
});
