import { parseRule, showRule } from '../policy/index.js';
import { Refused } from '../lib/index.js';
import { loadRuleLayers, removeProjectRule, RULE_KINDS, type RuleKind, type RuleLayer } from './project-settings.js';
import { SCOPES, settingsFiles, type SettingsScope } from './settings-layers.js';
import { startModeLine } from './start-mode.js';

export type ListedRule = { kind: RuleKind; text: string; scope: SettingsScope; file: string };

/**
 * Allow rules first, then deny, ask and network, each kind's user layer before the project's
 * and the local one's, numbered on from 1 across all: the number a removal may name, the same
 * in `/permissions` and `teams permissions`.
 */
export function listedRules(layers: readonly RuleLayer[]): ListedRule[] {
  return RULE_KINDS.flatMap((kind) => layers.flatMap(({ scope, file, rules }) => rules[kind].map((r) => ({ kind, text: showRule(r), scope, file }))));
}

/**
 * Remove a rule named by its number in the list as it is now (that one entry of its layer's
 * file: a network entry leaves the allow rule), or by its text (from every list of every layer
 * that holds it). Says what it did, naming each file.
 */
export function removeListedRule(home: string, remove: string): string {
  const list = listedRules(loadRuleLayers(home));
  if (/^\d+$/.test(remove)) {
    const entry = list[Number(remove) - 1];
    if (entry === undefined) throw new Refused(`no rule number ${remove} (there ${list.length === 1 ? 'is 1 rule' : `are ${list.length} rules`}; /permissions lists them)`);
    const rule = ruleOf(entry.text);
    removeProjectRule(home, rule, entry.kind, entry.scope);
    return `removed ${entry.kind} rule ${showRule(rule)} from ${entry.file}`;
  }
  const rule = ruleOf(remove);
  // Only the layers that hold it: a removal creates no file (nor the user's directory).
  const scopes = SCOPES.filter((scope) => list.some((entry) => entry.scope === scope && entry.text === showRule(rule)));
  const removed = scopes.map((scope) => removeProjectRule(home, rule, undefined, scope)).filter((change) => change.changed);
  if (removed.length === 0) return `no rule ${showRule(rule)} in any settings file; nothing removed`;
  return removed.map((change) => `removed ${showRule(rule)} from ${change.file}`).join('\n');
}

function ruleOf(text: string) {
  const rule = parseRule(text);
  if (typeof rule === 'string') throw new Refused(`invalid rule: ${rule}`);
  return rule;
}

/** The numbered list as `/permissions` and `teams permissions` show it, naming every layer's file, after the mode the lead starts in. */
export function ruleListText(home: string): string {
  return `${startModeLine(home)}\n${ruleLines(home)}`;
}

function ruleLines(home: string): string {
  const list = listedRules(loadRuleLayers(home));
  const files = settingsFiles(home).map(({ scope, file }) => `  ${scope.padEnd(7)} ${file}`);
  if (list.length === 0) return ['no permission rules (add one with a on a permission request, or teams allow <rule>); the settings files:', ...files].join('\n');
  const lines = list.map((r, i) => `  ${String(i + 1).padStart(2)}. ${r.kind.padEnd(7)} ${r.text}  (${r.scope})`);
  return ['permission rules (remove one by its number: /permissions remove N, teams permissions --remove N):', ...lines, 'from the settings files:', ...files].join('\n');
}
