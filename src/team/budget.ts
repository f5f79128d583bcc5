import { costOf, tokensOf, type TokenUsage } from '../model/index.js';
import type { TurnUsage, Member, TeamConfig, UsageTotals } from '../store/index.js';

/** Every billed token: input, output and both kinds of cache traffic. */
export function usageTokens(usage: UsageTotals | undefined): number {
  return usage ? tokensOf(usage) : 0;
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

/** A turn's usage as the roster keeps it: priced as the model that answered it. */
export function pricedTurn(model: string, usage: TokenUsage): TurnUsage {
  return { ...usage, cost_usd: costOf(model, usage) ?? null };
}

/**
 * What a member's model use cost in USD: the sum of its turns' prices, or (for totals kept
 * before those were recorded) its totals priced as its model. Undefined when not known.
 */
export function memberCost(member: Pick<Member, 'model' | 'usage'>): number | undefined {
  if (!member.usage) return 0;
  if (member.usage.cost_usd !== undefined) return member.usage.cost_usd ?? undefined;
  return member.model ? costOf(member.model, member.usage) : undefined;
}

/** "1234 tokens, $0.0123" (or "cost unknown" for a model without a known price). */
export function describeUsage(member: Pick<Member, 'model' | 'usage'>): string {
  const tokens = usageTokens(member.usage);
  const cost = memberCost(member);
  return `${tokens} tokens, ${cost === undefined ? 'cost unknown' : `$${cost.toFixed(4)}`}`;
}
