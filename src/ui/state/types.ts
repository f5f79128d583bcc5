import type { PreviewLine, TranscriptFold } from '../../present/index.js';
import type { Spent } from '../../model/index.js';
import type { Envelope, PermissionMode, RequestRecord } from '../../protocol/index.js';
import type { LeadEvent } from '../../lead/index.js';
import type { Member, LogBatch, LogCursor, StoreStatus, Task } from '../../store/index.js';

/** One finished line (or block) of the transcript: rendered once, never changed. */
export type TranscriptItem =
  | { id: number; kind: 'user'; text: string }
  | { id: number; kind: 'lead'; text: string; interrupted: boolean }
  /** A teammate's own words, in its view. */
  | { id: number; kind: 'said'; from: string; text: string }
  /** What entered a teammate's conversation (a message's notice, the human's words), in its view. */
  | { id: number; kind: 'notice'; text: string }
  /** A tool call with its result, as one compact line; `detail` is the result as Ctrl+O shows it. */
  | { id: number; kind: 'tool'; name: string; input: string; result: string; isError: boolean; detail?: string }
  /** Something a teammate sent the lead, marked with its sender. */
  | { id: number; kind: 'message'; from: string; type: Envelope['type']; text: string }
  | { id: number; kind: 'info'; text: string }
  /** A slash command's multi-line answer (a table, a log). */
  | { id: number; kind: 'output'; text: string }
  | { id: number; kind: 'error'; text: string };

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
export type NewItem = WithoutId<TranscriptItem>;

/** A tool call of the lead's current turn, waiting for its result. */
export type RunningTool = { id: string; name: string; input: string };

/** The lead's turn under way: streamed text and tools not yet finished. Never in <Static>. */
export type LiveTurnState = { busy: boolean; text: string; tools: RunningTool[] };

/**
 * A teammate's session as its view shows it, folded from its log. Kept while hidden, but
 * followed only while shown: a hidden view costs nothing, and catches up from `cursor`.
 */
export type AgentView = { name: string; items: TranscriptItem[]; nextId: number; fold: TranscriptFold; cursor: LogCursor | undefined };

/** A one-line text editor: the input line, or the inline reason of a rejection. */
export type LineState = { text: string; cursor: number };

export type Focus = 'input' | 'queue' | 'reason' | 'rule' | 'picker';

/** One of the lead's recent sessions, as /resume's picker shows it (newest first). */
export type ResumeChoice = { id: string; lastActive: string; prompt: string; records: number; tokens: number; current: boolean };

/** /resume alone: the lead's recent sessions, one selected (↑/↓), Enter to go on with it. */
export type PickerState = { choices: ResumeChoice[]; selected: number };

/**
 * `a` on a permission request: first the choice (this exact call for the session, or a rule
 * for the project), then the rule's text, pre-filled and editable; `error` is the parser's
 * sentence about the text last confirmed.
 */
export type RuleInputState = LineState & { requestId: string; stage: 'choose' | 'edit'; error?: string };

/** running → stopping (first Ctrl+C or /quit) → forcing (second Ctrl+C) → stopped. */
export type Phase = 'running' | 'stopping' | 'forcing' | 'stopped';

export type State = {
  team: string;
  /** What the header names the model by (the offline model is labelled as such). */
  modelLabel: string;
  /** The model id, for the price of the session's tokens. */
  model: string;
  offline: boolean;
  /** What the header says of the sandbox; `binding` false when approvals are advisory. */
  sandbox: { text: string; binding: boolean };
  cwd: string;
  now: number;
  transcript: TranscriptItem[];
  /** Whose session the main pane shows: the lead's, or a teammate's (Shift+↑/↓, /view). */
  view: string;
  views: Record<string, AgentView>;
  /** Ctrl+O: tool results shown whole rather than as one line. */
  detailed: boolean;
  /** The task board as last read, and whether its panel is open (Ctrl+T). */
  tasks: Task[];
  tasksShown: boolean;
  /** Bumped by /clear: a new <Static> starts, since the old one cannot forget what it printed. */
  epoch: number;
  nextId: number;
  live: LiveTurnState;
  /** What the lead's own turns spent since its session began here (teammates' is in their roster entries). */
  leadSpent: Spent;
  /**
   * Each member's roster totals when the lead's session began here (the REPL opened, /clear,
   * /resume): lifetime totals count earlier sessions, which the header and /cost leave out.
   */
  usageAtStart: Record<string, Spent>;
  /** What each agent spent in the lead's session before it began here: a --continue'd or /resume'd session's journals. */
  spentBefore: Record<string, Spent>;
  /** The lead's own permission mode (Shift+Tab), shown in the header. */
  leadMode: PermissionMode;
  /** The session the lead journals into; a new one after /clear. */
  sessionId: string | undefined;
  members: Member[];
  /** What each member last did, as one line, from the messages it sent or the lead's tools. */
  activity: Record<string, string>;
  /** Requests waiting on the human, oldest first. */
  queue: RequestRecord[];
  selected: number;
  /** Whether the selected request shows its whole plan or command. */
  expanded: boolean;
  /** What the expanded permission request will do, once read (`v` asks the controller for it). */
  preview: { requestId: string; lines: PreviewLine[] } | undefined;
  /** Requests decided from this screen whose decision is on its way. */
  deciding: string[];
  focus: Focus;
  input: LineState;
  /** The inline reason input opened by `n`, for one request. */
  reason: (LineState & { requestId: string }) | undefined;
  /** The choice and rule input opened by `a`, for one permission request. */
  rule: RuleInputState | undefined;
  picker: PickerState | undefined;
  history: string[];
  /** Where ↑/↓ is in the history; undefined when editing a fresh line. */
  historyIndex: number | undefined;
  /** The line being typed before ↑ was pressed, restored by ↓ past the newest entry. */
  draft: string;
  /** A one-line hint under the input: completion candidates, a key's explanation. */
  hint: string | undefined;
  phase: Phase;
  /** When an empty line's Ctrl+C asked for a second one to exit (Claude Code's habit): a second within 2 s quits. */
  exitArmedAt: number | undefined;
  /** Why the team store (Redis) cannot be reached while it cannot: the header says so until it is back. */
  storeDown: string | undefined;
};

/** Everything that changes the state: the runtime's events and the human's keys and commands. */
export type UiAction =
  | { type: 'lead_event'; event: LeadEvent }
  | { type: 'tick'; now: number }
  | { type: 'edit'; edit: LineEdit }
  | { type: 'history'; direction: -1 | 1 }
  | { type: 'complete' }
  | { type: 'line_submitted' }
  | { type: 'focus'; focus: 'input' | 'queue' }
  | { type: 'select'; delta: number }
  | { type: 'toggle_expand' }
  | { type: 'preview_loaded'; requestId: string; lines: PreviewLine[] }
  | { type: 'open_reason' }
  | { type: 'close_reason' }
  | { type: 'open_rule'; suggestion: string }
  | { type: 'edit_rule' }
  | { type: 'rule_invalid'; error: string }
  | { type: 'close_rule' }
  | { type: 'deciding'; requestId: string }
  | { type: 'decide_failed'; requestId: string; message: string }
  | { type: 'append'; items: NewItem[] }
  | { type: 'members'; members: Member[] }
  | { type: 'clear' }
  | { type: 'open_picker'; choices: ResumeChoice[] }
  | { type: 'picker_select'; delta: number }
  | { type: 'close_picker' }
  /** The lead's session changed (/clear, /resume): its totals start over from what its journals record. */
  | { type: 'session_spending'; spent: Record<string, Spent> }
  | { type: 'view'; name: string }
  | { type: 'agent_log'; name: string; batch: LogBatch }
  | { type: 'toggle_detail' }
  | { type: 'tasks'; tasks: Task[] }
  | { type: 'toggle_tasks' }
  | { type: 'hint'; text: string | undefined }
  | { type: 'quit_requested' }
  | { type: 'force_requested' }
  | { type: 'stopped' }
  | { type: 'store_status'; status: StoreStatus }
  | { type: 'exit_armed'; at: number };

export type LineEdit =
  | { op: 'insert'; text: string }
  | { op: 'backspace' }
  | { op: 'left' }
  | { op: 'right' }
  | { op: 'home' }
  | { op: 'end' }
  | { op: 'kill' };
