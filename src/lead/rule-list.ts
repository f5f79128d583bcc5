import { parseRule, showRule, type PermissionRules } from '../policy/index.js';
import { Refused } from '../lib/index.js';
import { loadProjectRules, removeProjectRule, settingsPath, type RuleKind } from './project-settings.js';

export type ListedRule = { kind: RuleKind; text: string };

/** Allow rules first, then deny, then network, numbered on from 1 across all: the number a removal may name. */
export function listedRules(rules: PermissionRules): ListedRule[] {
  const kinds = ['allow', 'deny', 'network'] as const;
  return kinds.flatMap((kind) => rules[kind].map((r) => ({ kind, text: showRule(r) })));
}

/**
 * Remove a project rule from `<home>/settings.json`, named by its text (every list's) or by its
 * number in the list as it is now (that one entry: a network entry leaves the allow rule).
 * Says what it did, naming the file.
 */
export function removeListedRule(home: string, remove: string): string {
  const file = settingsPath(home);
  const list = listedRules(loadProjectRules(home));
  const entry = /^\d+$/.test(remove) ? list[Number(remove) - 1] : { kind: undefined, text: remove };
  if (entry === undefined) throw new Refused(`no rule number ${remove} (there ${list.length === 1 ? 'is 1 rule' : `are ${list.length} rules`}; /permissions lists them)`);
  const rule = parseRule(entry.text);
  if (typeof rule === 'string') throw new Refused(`invalid rule: ${rule}`);
  const { changed } = removeProjectRule(home, rule, entry.kind);
  return changed ? `removed ${showRule(rule)} from ${file}` : `no rule ${showRule(rule)} in ${file}; nothing removed`;
}
