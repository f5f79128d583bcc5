import * as z from 'zod';
import { envelopeOf } from '../fields.js';
import { defineKind } from './spec.js';

/**
 * The project's permission rules as they are now (`<home>/settings.json`), whole, in the text
 * rules are written in (`Bash(npm test:*)`), with the bash rules whose commands may reach the
 * network (`network`) and the rules whose calls always wait for a human (`ask`); either is
 * absent from a lead that predates it: none. The lead sends it to each running teammate when
 * they change, signed: a teammate never reads the settings file itself, and believes rules only
 * from the lead, so no teammate can hand another (or itself) an allow rule. The teammate's
 * harness replaces its rules with these; its model is not told (the rules decide at each call,
 * and a refusal names the rule), so a change does not start a turn.
 */
export const rulesSet = defineKind(envelopeOf('rules_set', { allow: z.array(z.string()), deny: z.array(z.string()), ask: z.array(z.string()).optional(), network: z.array(z.string()).optional() }), {
  direction: 'from_lead',
  role: { class: 'notification' },
  notice: (e) =>
    `[The project's permission rules changed: ${count(e.allow.length, 'allow rule')}, ${count(e.deny.length, 'deny rule')}${e.ask?.length ? `, ${count(e.ask.length, 'ask rule')}` : ''}${e.network?.length ? `, ${count(e.network.length, 'network rule')}` : ''}.]`,
  startsTurn: false,
  atTeammate: (e, state) => ({ state, rules: { allow: e.allow, deny: e.deny, ask: e.ask ?? [], network: e.network ?? [] } }),
  line: (e) => `sets the permission rules: allow ${list(e.allow)}; deny ${list(e.deny)}${e.ask?.length ? `; ask ${list(e.ask)}` : ''}${e.network?.length ? `; network ${list(e.network)}` : ''}`,
});

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

function list(rules: readonly string[]): string {
  return rules.length === 0 ? 'none' : rules.join(', ');
}
