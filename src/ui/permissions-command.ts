import { parseRule, showRule, type PermissionRules } from '../policy/index.js';
import { loadProjectRules, removeProjectRule, settingsPath, type RuleKind } from '../lead/index.js';
import type { NewItem } from './state/types.js';

/** Allow rules first, then deny, then network, numbered on from 1 across all: the number `/permissions remove <n>` takes. */
function numbered(rules: PermissionRules): { kind: RuleKind; text: string }[] {
  const kinds = ['allow', 'deny', 'network'] as const;
  return kinds.flatMap((kind) => rules[kind].map((r) => ({ kind, text: showRule(r) })));
}

/**
 * `/permissions`: the project's rules in `<home>/settings.json`, read and changed only through
 * project-settings.ts (the file's lock, its parser). `remove` is a rule's text (checked by the
 * parser already) or its number in the list as it is now.
 */
export function permissionsCommand(home: string, remove: string | undefined): NewItem[] {
  const file = settingsPath(home);
  const rules = loadProjectRules(home);
  const list = numbered(rules);
  if (remove === undefined) {
    if (list.length === 0) return [{ kind: 'output', text: `no permission rules in ${file} (add one with a on a permission request, or teams allow <rule>)` }];
    const lines = list.map((r, i) => `  ${String(i + 1).padStart(2)}. ${r.kind.padEnd(5)} ${r.text}`);
    return [{ kind: 'output', text: [`permission rules in ${file}:`, ...lines].join('\n') }];
  }
  // By number: that one entry (a network entry leaves the allow rule); by text: every list's.
  const entry = /^\d+$/.test(remove) ? list[Number(remove) - 1] : { kind: undefined, text: remove };
  if (entry === undefined) throw new Error(`no rule number ${remove} (there ${list.length === 1 ? 'is 1 rule' : `are ${list.length} rules`}; /permissions lists them)`);
  const rule = parseRule(entry.text);
  if (typeof rule === 'string') throw new Error(`invalid rule: ${rule}`);
  const { changed } = removeProjectRule(home, rule, entry.kind);
  return [{ kind: 'info', text: changed ? `removed ${showRule(rule)} from ${file}` : `no rule ${showRule(rule)} in ${file}; nothing removed` }];
}
