// Project hooks: their settings, the sandboxed process that runs one, and what its verdict means.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { hookOutcome } from './outcome.js';
export type { HookVerdict } from './outcome.js';
export { runHookProcess } from './process.js';
export { HOOK_EVENTS, HookEvent, HookSpec, HooksSection, describeHookPowers } from './settings.js';
export type { HooksConfig } from './settings.js';
