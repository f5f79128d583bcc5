/**
 * Deterministic token figures for the offline model (prompt caching is simulated on top
 * of them in prompt-cache.ts). Estimates, not a tokenizer: about 4 characters per token.
 */

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export type InputUsage = { input_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number };
