// The model client: settings, the SDK connection, context windows, usage and cost.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { DEFAULT_MAX_TOKENS, ModelClient, ModelError } from './client.js';
export type { AssistantBlock, ToolSpec } from './client.js';
export { openModel } from './connect.js';
export type { OpenModel } from './connect.js';
export { DEFAULT_CONTEXT_WINDOW, contextWindowOf } from './context-window.js';
export { lazyModel } from './lazy.js';
export { ModelId, SettingsError, childModelEnv, modelIdProblem, resolveModelSettings, teammateModel } from './settings.js';
export type { ModelSettings } from './settings.js';
export { ZERO_USAGE, NOTHING_SPENT, addUsage, addSpent, costOf, spentByModel, spentOn, tokensOf } from './usage.js';
export type { Spent, TokenUsage } from './usage.js';
