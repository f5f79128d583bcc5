import type { Draft, Envelope } from '../protocol/index.js';
import type { Task } from '../store/index.js';
import type { LeadEvent } from './events.js';
import type { CompletionReportEnvelope, IdleNotification, LeadState } from './state.js';

/**
 * What a step of the lead asks to be done, in order. The lead runs them (lead/execute.ts),
 * each by the module that owns the resource (the bus, the hooks, the board, the model loop);
 * an effect that ends in an input (a hook's verdict, the board read) feeds it back to `stepLead`.
 */
export type LeadEffect =
  /** Tell the REPL and `teams run`: the one place LeadEvents come from. */
  | { type: 'emit'; event: LeadEvent }
  /** Shown ("what: reason", or the reason alone) and, when `audited`, written to the audit log. */
  | { type: 'problem'; what: string | undefined; reason: string; audited: boolean }
  /** The lead's model hears it with its next input (a turn starts if it is idle, unless `later`: no reason to spend a model call now). */
  | { type: 'tell_model'; text: string; later?: boolean }
  /** The teammate agreed to stop: its exit is no crash. */
  | { type: 'expect_exit'; name: string }
  /** A request for the human arrived: the approval queue looks again. */
  | { type: 'approvals_changed' }
  /** `name` went idle: read the board for what it may claim (then `board_read`). */
  | { type: 'offer_work'; name: string }
  /** Run the teammate_idle hooks on it (then `idle_checked`). */
  | { type: 'check_idle'; envelope: IdleNotification; seen: number }
  /** Run the task_completed hooks on the report and record it if they pass (then `completion_settled`). */
  | { type: 'check_completion'; envelope: CompletionReportEnvelope; seen: number }
  /** Notify-only hooks: nothing waits for them. */
  | { type: 'notify_hooks'; event: 'plan_submitted' | 'permission_requested'; envelope: Envelope }
  | { type: 'task_created'; task: Task }
  /** Send a message signed by the lead; `unsent`: what to report if it fails (else the failure is the caller's). */
  | { type: 'send'; draft: Draft; unsent?: string };

/** One step of the lead: what it knows now, and what is to be done about it. */
export type LeadStep = { state: LeadState; effects: LeadEffect[] };
