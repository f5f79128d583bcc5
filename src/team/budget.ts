import { costOf } from '../model/usage.js';
import type { Member, TeamConfig, UsageTotals } from '../store/roster.js';

/** Every billed token: input, output and both kinds of cache traffic. */
export function usageTokens(usage: UsageTotals | undefined): number {
  if (!usage) return 0;
  return usage.input_tokens + usage.output_tokens + usage.cache_read_tokens + usage.cache_write_tokens;
}

export function teamTokens(config: TeamConfig): number {
  return config.members.reduce((sum, member) => sum + usageTokens(member.usage), 0);
}

/** Why no new work may start, or undefined while the team's token budget lasts. */
export function budgetProblem(config: TeamConfig | undefined): string | undefined {
  if (!config?.token_budget) return undefined;
  const spent = teamTokens(config);
  if (spent < config.token_budget) return undefined;
  return `the team's token budget is spent (${spent} of ${config.token_budget} tokens); no new work starts`;
}

/** "1234 tokens, $0.0123" (or "cost unknown" for a model without a known price). */
export function describeUsage(member: Pick<Member, 'model' | 'usage'>): string {
  const tokens = usageTokens(member.usage);
  const cost = member.usage && member.model ? costOf(member.model, member.usage) : 0;
  return `${tokens} tokens, ${cost === undefined ? 'cost unknown' : `$${cost.toFixed(4)}`}`;
}
