import * as z from 'zod';
import { envelopeOf, PermissionMode } from '../fields.js';
import { defineKind } from './spec.js';
import { colon, header, sentence } from './text.js';

/**
 * The lead changes a running teammate's permission mode (the human's /mode or `teams mode`).
 * Only the lead sends it, signed by the lead's process, so a teammate cannot hand another one,
 * or itself, more room. `plan` puts the teammate back in plan mode until a plan is approved.
 */
const ModeSet = envelopeOf('mode_set', { permission_mode: PermissionMode, reason: z.string().optional() });

function modeNotice(e: z.output<typeof ModeSet>): string {
  return e.permission_mode === 'plan'
    ? `${header(e)} ${sentence(`The lead put you in plan mode${colon(e.reason)}`)} Change nothing: submit a plan for approval first.`
    : `${header(e)} ${sentence(`Your permission mode is now ${e.permission_mode}${colon(e.reason)}`)}`;
}

export const modeSet = defineKind(ModeSet, {
  direction: 'from_lead',
  role: { class: 'notification' },
  notice: modeNotice,
  // Plan mode holds again until a plan is approved; any other mode ends plan mode, which only the human can order.
  atTeammate: (e, state) => ({
    state: e.permission_mode === 'plan' ? { ...state, mode: 'plan', planApproved: false, planRejections: 0 } : { ...state, mode: e.permission_mode, planApproved: true },
    notice: modeNotice(e),
  }),
  line: (e) => `sets the permission mode to ${e.permission_mode}${colon(e.reason)}`,
});
