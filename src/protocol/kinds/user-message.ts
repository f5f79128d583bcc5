import * as z from 'zod';
import { envelopeOf } from '../fields.js';
import { defineKind } from './spec.js';

/**
 * The human's own words to one teammate (typed in its view, `/send`, `teams send --from user`).
 * The lead process relays them, signed with its key like every order: only the process that
 * holds the human's terminal may speak for them, so a teammate cannot put words in the
 * human's mouth. The model and every human-facing line read them as the user's, not the lead's.
 */
export const userMessage = defineKind(envelopeOf('user_message', { text: z.string().min(1, 'text is empty') }), {
  direction: 'from_lead',
  role: { class: 'notification' },
  notice: (e) => `From the user: ${e.text}`,
  line: (e) => e.text,
  author: 'user',
});
