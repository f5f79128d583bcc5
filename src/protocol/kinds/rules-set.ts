import * as z from 'zod';
import { envelopeOf } from '../fields.js';
import { defineKind } from './spec.js';

/**
 * The project's permission rules as they are now (`<home>/settings.json`), whole, in the text
 * rules are written in (`bash(npm test*)`). The lead sends it to each running teammate when
 * they change, signed: a teammate never reads the settings file itself, and believes rules only
 * from the lead, so no teammate can hand another (or itself) an allow rule. The teammate's
 * harness replaces its rules with these; its model is not told (the rules decide at each call,
 * and a refusal names the rule), so a change does not start a turn.
 */
export const rulesSet = defineKind(envelopeOf('rules_set', { allow: z.array(z.string()), deny: z.array(z.string()) }), {
  direction: 'from_lead',
  role: { class: 'notification' },
  notice: (e) => `[The project's permission rules changed: ${count(e.allow.length, 'allow rule')}, ${count(e.deny.length, 'deny rule')}.]`,
  line: (e) => `sets the permission rules: allow ${list(e.allow)}; deny ${list(e.deny)}`,
});

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

function list(rules: readonly string[]): string {
  return rules.length === 0 ? 'none' : rules.join(', ');
}
