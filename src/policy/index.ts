// What to ask: tool-use decisions, grants, permission rules and the shell parser. Pure; the sandbox
// enforces what is decided here.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { alwaysKey, decideToolUse, grantOnApproval } from './approvals.js';
export { READ_ONLY_GRANT } from './grant.js';
export type { CommandGrant } from './grant.js';
export { modeGrantProblem } from './mode-grant.js';
export type { ModeAsker } from './mode-grant.js';
export { GIT_DIR, GIT_DIR_GUARDED, isGitPath } from './places.js';
export { suggestRule } from './rule-suggestion.js';
export { NetworkRuleText, RuleText, RulesText, parseRule, rulesAsText, showRule } from './rules.js';
export { ruleSettles } from './rule-settles.js';
export type { PermissionRule, PermissionRules, RulesAsText } from './rules.js';
