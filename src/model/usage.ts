import { addCounts } from '../lib/index.js';
import { OFFLINE_MODEL } from '../offline/index.js';

/**
 * Token usage and cost per agent. Field names match the protocol's Usage (messages.ts),
 * so a total can go straight into a task notification.
 */

export type TokenUsage = {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
};

export const ZERO_USAGE: TokenUsage = Object.freeze({
  input_tokens: 0,
  output_tokens: 0,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
});

/** Two usages added field by field. */
export const addUsage: (a: TokenUsage, b: TokenUsage) => TokenUsage = addCounts;

/** USD per million tokens. Cache writes are the 5-minute kind, the only one this client asks for. */
export type ModelPrice = { input: number; output: number; cacheWrite: number; cacheRead: number };

/**
 * List prices from platform.claude.com's pricing page as of December 2026. Kept small on
 * purpose: a model missing here gets no cost rather than a guessed one. Haiku 5.5 is left
 * out because its price depends on each request's prompt length.
 */
const PRICES: Readonly<Record<string, ModelPrice>> = {
  [OFFLINE_MODEL]: { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 },
  'claude-sonnet-5-5': { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.1 },
  'claude-sonnet-5': { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 },
  'claude-opus-5-5': { input: 4, output: 20, cacheWrite: 5, cacheRead: 0.2 },
  'claude-opus-5': { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 },
  'claude-sonnet-4-6': { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
};

/** A model's price; a dated snapshot id (claude-haiku-4-5-20251001) is priced as its model. */
export function priceOf(model: string): ModelPrice | undefined {
  return PRICES[model] ?? PRICES[model.replace(/-\d{8}$/, '')];
}

/** Cost in USD, or undefined when the model's price is not known. */
export function costOf(model: string, usage: TokenUsage): number | undefined {
  const price = priceOf(model);
  if (price === undefined) return undefined;
  const micro =
    usage.input_tokens * price.input +
    usage.output_tokens * price.output +
    usage.cache_write_tokens * price.cacheWrite +
    usage.cache_read_tokens * price.cacheRead;
  return micro / 1_000_000;
}

/**
 * What some model calls used and cost: tokens, and USD with each call priced as the model that
 * answered it. Cost is undefined once one call ran a model without a known price: a partial
 * sum would mislead.
 */
export type Spent = { usage: TokenUsage; cost: number | undefined };

export const NOTHING_SPENT: Spent = Object.freeze({ usage: ZERO_USAGE, cost: 0 });

/** One call's usage, priced as `model`. */
export function spentOn(model: string, usage: TokenUsage): Spent {
  return { usage, cost: costOf(model, usage) };
}

export function addSpent(a: Spent, b: Spent): Spent {
  return { usage: addUsage(a.usage, b.usage), cost: a.cost === undefined || b.cost === undefined ? undefined : a.cost + b.cost };
}

/** Usage kept by the model that answered (a session's, as its journals record it), each part priced as its model. */
export function spentByModel(byModel: Readonly<Record<string, TokenUsage>>): Spent {
  return Object.entries(byModel).reduce((sum, [model, usage]) => addSpent(sum, spentOn(model, usage)), NOTHING_SPENT);
}

/** Every token of a usage, whatever its kind. */
export function tokensOf(usage: TokenUsage): number {
  return usage.input_tokens + usage.output_tokens + usage.cache_read_tokens + usage.cache_write_tokens;
}
