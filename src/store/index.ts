// Where a team's shared state lives: the TeamStore interfaces (roster, mailboxes, requests, tasks,
// audit, sessions, agent logs) and their pure rules. The backends (store/file/, store/redis/) are
// opened by store/open-store.ts, which only a process's entry imports.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { logLineOf } from './agent-log.js';
export type { LogLine, LoggedEvent } from './agent-log.js';
export { StoreClock } from './clock.js';
export { describeStoreStatus } from './store-status.js';
export { AuditEntry, CompactReason, involves, participants } from './audit.js';
export { addMember, addMemberUsage, removeMember, setMemberMode, setMemberStatus, setMemberWorktree } from './roster-changes.js';
export type { TurnUsage } from './roster-changes.js';
export { HOST_STALE_MS, aliveMembers, describeMemberProcess, memberIsAlive } from './member-liveness.js';
export type { LivenessView } from './member-liveness.js';
export { Member, MemberStatus, TeamConfig, UsageTotals, WorktreeRecord, findMember, memberNames, requireMember, requireStoredMember, teamNameProblem } from './roster.js';
export { HostBeat, HostRecord } from './hosts.js';
export { SessionId, SessionRecord, promptPreview } from './sessions.js';
export type { SessionSummary } from './sessions.js';
export { readStateRootRegistry } from './state-root-registry.js';
export { STORE_ENV, redactDescriptor, teamRoot } from './store-descriptor.js';
export { EMPTY_SUBJECT, HUMAN_ACTOR, assigneeProblem, parseTaskIdList, taskIdProblem } from './task-input.js';
export { ONE_LINE_SUBJECT, Task, TaskBoardStatus, TaskChange, TaskId, claimProblem, isOneLine, transitionProblem } from './tasks.js';
export type { TaskResult } from './tasks.js';
export type { AgentLogs, AuditBatch, LogBatch, LogCursor, RequestStore, RosterStore, SessionStore, StoredProblem, StoreStatus, TaskFilter, TaskStore, TeamStore } from './team-store.js';
export type { MailboxEvent, Subscription } from './transport.js';
