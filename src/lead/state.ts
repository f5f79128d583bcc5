import type { Envelope, PermissionMode, PlanReviewer, RequestRecord } from '../protocol/index.js';
import type { AgentEvent, CompactReason } from '../agent/index.js';
import type { Member, Task, TaskBoardStatus } from '../store/index.js';
import type { HookVerdict } from '../hooks/index.js';
import type { CompletionOutcome } from './completion.js';

/**
 * How many times in a row a blocking hook may send one teammate back to work, for its stop or
 * for one task: each time costs a model turn, so a hook that always says no must not spend
 * without end. Past it, the stop goes through; a completion stays refused, and its further
 * reports are dropped unchecked (the human decides). Reset whenever the hook lets it pass.
 */
export const MAX_HOOK_REFUSALS = 5;

/** A board task as the lead last saw it: enough to tell an assignment from the rest. */
export type BoardSeen = { status: TaskBoardStatus; owner: string | undefined };

/**
 * Everything the lead remembers of its team between two inputs, in one value: stepped only by
 * `stepLead` (step.ts), so the rules of when a teammate counts as idle, when a hook may refuse
 * again and what the board has already said live in one pure function.
 */
export type LeadState = {
  /** Whose plans the lead's model reviews: decides which messages the human, not the model, hears of. */
  planReviewer: PlanReviewer;
  /** The lead's own permission mode: what its tools may do unasked, and whether its commands may write (Shift+Tab changes it). */
  mode: PermissionMode;
  /**
   * Teammates whose idle notification the lead has received since it last gave them
   * anything. Per-sender order means everything they sent before it has arrived too.
   */
  idle: ReadonlySet<string>;
  /** When the lead last sent each teammate what starts a turn (ms). */
  lastSent: ReadonlyMap<string, number>;
  /** Messages from or to each teammate so far: what it did after an idle notification whose hooks still run. */
  traffic: ReadonlyMap<string, number>;
  /** Refusals in a row, by "<event>:<teammate>[:<task id>]" (MAX_HOOK_REFUSALS). */
  refusals: ReadonlyMap<string, number>;
  /** Completion reports whose checks still run ("<from>:<task id>"): the team is not quiet meanwhile, as a hook may send a teammate back to work. */
  checking: ReadonlySet<string>;
  /** The lead is stopping: no turn of its model starts, and the board neither assigns nor offers. */
  stopping: boolean;
  /** The lead's own permission requests → the exact call each asks for, so "always" can match repeats. */
  ownCalls: ReadonlyMap<string, string>;
  /** The lead's own calls the human approved "always": its policy allows them unasked. */
  always: ReadonlySet<string>;
  /** Each request's state when the lead last looked, to tell what changed. */
  requests: ReadonlyMap<string, RequestRecord['state']>;
  board: {
    /** The board at the last look; undefined before the first, which is the board as the lead found it. */
    seen: ReadonlyMap<string, BoardSeen> | undefined;
    /** "<name>:<id>": tasks a teammate was sent or told of (a spawn's own task included), never twice. */
    told: ReadonlySet<string>;
    /** The board's set-aside records already reported, by ref and reason: each is reported once. */
    reported: ReadonlySet<string>;
  };
};

export function initialLeadState(planReviewer: PlanReviewer, mode: PermissionMode = 'default'): LeadState {
  return {
    planReviewer,
    mode,
    idle: new Set(),
    lastSent: new Map(),
    traffic: new Map(),
    refusals: new Map(),
    checking: new Set(),
    stopping: false,
    ownCalls: new Map(),
    always: new Set(),
    requests: new Map(),
    board: { seen: undefined, told: new Set(), reported: new Set() },
  };
}

export type IdleNotification = Extract<Envelope, { type: 'idle_notification' }>;
export type CompletionReportEnvelope = Extract<Envelope, { type: 'task_notification' }>;

/** What the board's records that could not be read say (TaskStore.problems). */
export type BoardProblem = { ref: string; reason: string };

/** Everything that can change what the lead knows, as one union: `stepLead` takes one at a time. */
export type LeadInput =
  /** A verified message reached the lead's mailbox; `idleHooks`: whether teammate_idle hooks are set now (read from the settings file). */
  | { type: 'received'; envelope: Envelope; idleHooks: boolean }
  /** The lead's bus sent a message (to a teammate, or on the behalf of one that exited). */
  | { type: 'sent'; envelope: Envelope }
  /** The teammate_idle hooks spoke on an idle notification; `seen`: the sender's traffic when it arrived. */
  | { type: 'idle_checked'; envelope: IdleNotification; seen: number; verdict: HookVerdict }
  /** The task_completed hooks spoke on `owner`'s task: a refusal is tallied, its feedback sent. */
  | { type: 'completion_verdict'; owner: string; taskId: string; verdict: HookVerdict }
  /** A teammate's completion report was settled (completion.ts); `unchecked`: refused because the lead stopped before its hooks ran. */
  | { type: 'completion_settled'; envelope: CompletionReportEnvelope; seen: number; outcome: CompletionOutcome | { kind: 'error'; error: string }; unchecked: boolean }
  /** The board changed (whoever changed it); `running`: the teammates running now. */
  | { type: 'board_changed'; tasks: Task[]; problems: BoardProblem[]; running: string[] }
  /** The board as read for `name`, who just went idle: what it may claim is offered. */
  | { type: 'board_read'; name: string; tasks: Task[] }
  /** The lead sent `name` task `taskId` itself (a spawn's own task): the board watch does not. */
  | { type: 'assigned'; name: string; taskId: string }
  | { type: 'child_exited'; name: string; code: number | null; signal: string | null; why: string; crashed: boolean }
  /** A teammate compacted its conversation (its own process said so, over IPC). */
  | { type: 'child_compacted'; name: string; before: number; after: number; reason: CompactReason }
  /** The requests as the store holds them now; `first`: as the lead found them when it started (an earlier session's, not news). */
  | { type: 'requests_changed'; records: readonly RequestRecord[]; first: boolean }
  /** The lead's own tool call `call` waits on the human as request `requestId`. */
  | { type: 'own_call_asked'; requestId: string; call: string }
  /** A request was decided (by the human, or a deadline for the lead's own): "always" with an approval of the lead's own call keeps it. */
  | { type: 'decided'; requestId: string; approve: boolean; always: boolean }
  /** What waits on the human now, oldest first. */
  | { type: 'approvals'; pending: RequestRecord[] }
  /** Something failed or was refused that no caller waits for; `audited`: written to the audit log too. */
  | { type: 'problem'; what: string | undefined; reason: string; audited: boolean }
  /** The lead's own model loop did something (a turn began, text came, a tool ran). */
  | { type: 'agent'; event: AgentEvent }
  /** The roster as it stands now. */
  | { type: 'roster'; members: Member[] }
  /** Something the human should know that went well enough. */
  | { type: 'notice'; text: string }
  /** The human set the lead's own permission mode (a `lead_mode` op). */
  | { type: 'lead_mode'; mode: PermissionMode }
  /** The lead's model for its next turns was set, or its fresh conversation began in a new session: the REPL shows them. */
  | { type: 'lead_model'; model: string; label: string }
  | { type: 'lead_session'; id: string }
  /** The stop began: nothing starts the lead's model or sends a teammate work any more. */
  | { type: 'stop' };
