import { tokensOf, type Spent, type TokenUsage } from '../model/index.js';
import { dollars } from '../present/index.js';
import { redactDescriptor } from '../store/index.js';
import type { ReplRuntime } from './runtime.js';
import { sessionUsage, spendingByAgent } from './state/selectors.js';
import type { NewItem, State } from './state/types.js';

/** The share of input tokens read from the prompt cache: what caching saved. */
function cacheShare(usage: TokenUsage): string {
  const input = usage.input_tokens + usage.cache_read_tokens + usage.cache_write_tokens;
  return input === 0 ? '-' : `${Math.round((usage.cache_read_tokens / input) * 100)}%`;
}

function costRow(name: string, { usage, cost }: Spent): string[] {
  return [name, String(tokensOf(usage)), String(usage.input_tokens), String(usage.output_tokens), String(usage.cache_read_tokens), String(usage.cache_write_tokens), cacheShare(usage), dollars(cost)];
}

/** /cost: the lead's session's usage per agent, as the header adds it up (spendingByAgent), with the cache's share. */
export function costText(state: Pick<State, 'leadSpent' | 'members' | 'model' | 'usageAtStart' | 'spentBefore' | 'sessionId'>): string {
  const rows = [['agent', 'tokens', 'input', 'output', 'cache read', 'cache write', 'cached', 'cost'], ...spendingByAgent(state).map(([name, spent]) => costRow(name, spent))];
  const total = sessionUsage(state);
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length))) ?? [];
  const lines = rows.map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  '));
  return [...lines, `session ${state.sessionId ?? '(none yet)'}: ${total.tokens} tokens, ${dollars(total.cost)}`].join('\n');
}

/** /status: where everything is, in one place. */
export function statusText(state: Pick<State, 'team' | 'modelLabel' | 'leadMode' | 'sessionId' | 'sandbox' | 'cwd'>, runtime: Pick<ReplRuntime, 'options'>): string {
  const { storeDescriptor, paths } = runtime.options;
  const store = storeDescriptor ? redactDescriptor(storeDescriptor) : `file store${paths ? ` in ${paths.home}` : ''}`;
  return [
    `team      ${state.team}`,
    `store     ${store}`,
    `sandbox   ${state.sandbox.text}`,
    `model     ${state.modelLabel}`,
    `mode      ${state.leadMode} (Shift+Tab cycles default, accept-edits, plan)`,
    `session   ${state.sessionId ?? '(none yet)'}`,
    `cwd       ${state.cwd}`,
  ].join('\n');
}

/** /model alone: the lead's model, and how to change it. */
export function modelItems(state: Pick<State, 'modelLabel'>): NewItem[] {
  return [{ kind: 'info', text: `the lead's model: ${state.modelLabel} (/model <id> sets it for its next turns)` }];
}
