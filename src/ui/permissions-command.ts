import { ruleListText } from '../lead/index.js';
import type { NewItem } from './state/types.js';

/** `/permissions`: the rules of every settings layer, numbered as `/permissions remove <n>` takes them. */
export function permissionsList(home: string): NewItem[] {
  return [{ kind: 'output', text: ruleListText(home) }];
}
