import { OFFLINE_MODEL } from '../offline/index.js';

/**
 * How many tokens of prompt each model takes. Kept beside the price table (usage.ts) and as
 * small: the Claude models this client names all take 200k tokens, and a model missing here
 * gets the same safe default, since a too-small guess only compacts early while a too-large
 * one ends in the API's "prompt is too long".
 */
export const DEFAULT_CONTEXT_WINDOW = 200_000;

const WINDOWS: Readonly<Record<string, number>> = {
  // The offline model's server refuses nothing unless its script sets a window: any figure
  // here only decides when the agent compacts.
  [OFFLINE_MODEL]: 200_000,
  'claude-sonnet-5-5': 200_000,
  'claude-sonnet-5': 200_000,
  'claude-opus-5-5': 200_000,
  'claude-opus-5': 200_000,
  'claude-sonnet-4-6': 200_000,
  'claude-haiku-4-5': 200_000,
};

/** The smallest window --context-window accepts: below it a system prompt and tools alone fill it. */
export const MIN_CONTEXT_WINDOW = 4_000;
export const MAX_CONTEXT_WINDOW = 10_000_000;

/** A model's window; a dated snapshot id is looked up as its model, as for prices. */
export function contextWindowOf(model: string, override?: number): number {
  return override ?? WINDOWS[model] ?? WINDOWS[model.replace(/-\d{8}$/, '')] ?? DEFAULT_CONTEXT_WINDOW;
}
