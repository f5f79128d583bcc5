import { envelopeOf } from '../fields.js';
import { defineKind } from './spec.js';

/** What an interrupted teammate's model reads once it next runs: it stopped on the user's word. */
export const INTERRUPTED_NOTE = '[The user interrupted you. Wait for their next message.]';

/**
 * The human stops a teammate's current model call or tool (Esc in its view, `teams interrupt`).
 * Only the lead sends it, signed, so no teammate can stop another. The teammate's harness acts
 * on it and starts nothing more: its model hears of it only with the next input it gets.
 */
export const interrupt = defineKind(envelopeOf('interrupt', {}), {
  direction: 'from_lead',
  role: { class: 'notification' },
  notice: () => INTERRUPTED_NOTE,
  line: () => 'stop the current model call or tool, and wait',
  author: 'user',
  startsTurn: false,
  atTeammate: (_e, state) => ({ state, halt: true }),
});
