import { listedRules, loadProjectRules, settingsPath } from '../lead/index.js';
import type { NewItem } from './state/types.js';

/**
 * `/permissions`: the project's rules in `<home>/settings.json`, numbered as
 * `/permissions remove <n>` (a lead op) takes them.
 */
export function permissionsList(home: string): NewItem[] {
  const file = settingsPath(home);
  const list = listedRules(loadProjectRules(home));
  if (list.length === 0) return [{ kind: 'output', text: `no permission rules in ${file} (add one with a on a permission request, or teams allow <rule>)` }];
  const lines = list.map((r, i) => `  ${String(i + 1).padStart(2)}. ${r.kind.padEnd(5)} ${r.text}`);
  return [{ kind: 'output', text: [`permission rules in ${file}:`, ...lines].join('\n') }];
}
