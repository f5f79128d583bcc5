// One agent's model loop: the conversation, prompts, compaction, and the session journal that makes
// it resumable.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
// The store's schema names why an agent compacted; the loop's events carry it.
export type { CompactReason } from '../store/index.js';
export { Conversation } from './conversation.js';
export type { ConversationRecord, RecordSink } from './conversation.js';
export type { AgentEvent } from './events.js';
export { AgentLoop } from './loop.js';
export { planModeNote, planReviewNote, protocolRules, renderPrompt } from './prompts.js';
export type { AgentDefinition } from './agent-definition.js';
export { agentsDir, findAgentDefinition, loadAgentDefinitions, withAgentDefinitions, withAgentRole } from './agent-definitions.js';
export { findProjectInstructions, withProjectInstructions } from './project-instructions.js';
export { journalSink, openConversation, readAgentJournal, sessionSpending } from './session-journal.js';
export { closeInterruptedTools } from './resume.js';
export type { OpenedConversation } from './session-journal.js';
