import type { AgentEvent, CompactReason } from '../agent/index.js';
import type { Envelope, PermissionMode, RequestRecord } from '../protocol/index.js';
import type { Member } from '../store/index.js';

// Its own file so that lead.ts and the helpers it composes (lead-decisions, lead-teammates)
// can all name the event type without importing one another in a circle.

/** Everything the lead runtime reports: the lead loop's events and the team's. */
export type LeadEvent =
  | { type: 'agent'; event: AgentEvent }
  | { type: 'message'; envelope: Envelope }
  | { type: 'approvals'; pending: RequestRecord[] }
  /** A request between teammates opened or changed state: the lead takes no part, but the human sees it. */
  | { type: 'request'; record: RequestRecord }
  | { type: 'team'; members: Member[] }
  | { type: 'teammate_exit'; name: string; code: number | null; signal: string | null; /** How it ended, for a person (describeExit). */ why: string; crashed: boolean }
  | { type: 'problem'; text: string }
  /** Something the human should know that went well enough, e.g. a teammate's worktree kept. */
  | { type: 'notice'; text: string }
  /** A teammate compacted its conversation (its own process told the lead, over IPC). */
  /** The lead's own permission mode, as set now (Shift+Tab, a `lead_mode` op). */
  | { type: 'lead_mode'; mode: PermissionMode }
  /** The lead's model for its next turns (`/model`). */
  | { type: 'lead_model'; model: string; label: string }
  /** The lead starts a fresh conversation in a new session (`/clear`). */
  | { type: 'lead_session'; id: string }
  | { type: 'teammate_compacted'; name: string; before: number; after: number; reason: CompactReason };
