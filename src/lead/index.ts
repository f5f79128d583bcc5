// The lead: its runtime, its agent, the decisions, the board, hooks, teammates, recovery and the
// control socket.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { ControlCommand, readControlToken, sendControl } from './control.js';
export type { HumanDecision } from './decisions.js';
export type { LeadEvent } from './events.js';
export { addProjectRule, loadProjectHooks, loadProjectRules, loadProjectSandbox, removeProjectRule, settingsPath } from './project-settings.js';
export type { RuleKind } from './project-settings.js';
export { describeRespawn } from './respawn.js';
export type { LeadSessionStart, SessionChoice } from './session.js';
export { LeadRuntime } from './lead.js';
