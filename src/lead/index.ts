// The lead: its runtime, its agent, the decisions, the board, hooks, teammates, recovery and the
// control socket.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { readControlToken, sendControl } from './control.js';
export { doctorReport, doctorText } from './doctor-report.js';
export { LeadOp, replyTo } from './ops.js';
export type { LeadReply, LeadSnapshot, ReplyTo } from './ops.js';
export { listedRules, removeListedRule, ruleListText } from './rule-list.js';
export { loadModeLayers, modeNamed, startMode } from './start-mode.js';
export type { LeadEvent } from './events.js';
export { addProjectRule, loadProjectRules, loadRuleLayers } from './project-settings.js';
export type { RuleKind } from './project-settings.js';
export { SCOPES, settingsFiles } from './settings-layers.js';
export type { SettingsScope } from './settings-layers.js';
export type { LeadSessionStart, SessionChoice } from './session.js';
export { LeadRuntime } from './lead.js';
export { nextLeadMode } from './lead-controls.js';
export { checkMcpServers } from './mcp-check.js';
export { trustProjectMcpJson } from './mcp-settings.js';
