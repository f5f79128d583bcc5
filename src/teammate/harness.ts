import { atTeammate, type Envelope, INTERRUPTED_NOTE, type PermissionMode, type RequestKind, type TeammateReaction, type TeammateState } from '../protocol/index.js';
import { RulesText, type PermissionRules } from '../policy/index.js';
import { describeIssues } from '../lib/index.js';
import type { MemberStatus } from '../store/index.js';
import type { PermissionAnswer } from './permission-answer.js';

/**
 * Everything the teammate harness remembers, in one value: its protocol state, and what it
 * needs to tell the lead the right thing at the right time.
 */
export type HarnessState = TeammateState & {
  /** Its task, as the lead assigned it; until then its name stands for it. Kept whole through a compaction. */
  task: { id: string; subject: string; description?: string };
  status: MemberStatus;
  /** It told the lead something since the model last heard news: an idle notice need not repeat it. */
  reported: boolean;
  /** A plan or finish request the lead has not answered: while it waits, it is not idle. */
  awaiting?: { kind: RequestKind; requestId: string };
  /** Calls the human approved "always", as `alwaysKey` names them; only the lead's verified answer adds one. */
  alwaysAllowed: ReadonlySet<string>;
  /** The project's permission rules, as the lead handed them over at spawn and sent since (rules_set). */
  rules: PermissionRules;
  /** The stop began: a second reason to stop changes nothing. */
  stopped: boolean;
  /** The user interrupted the turn under way: when it ends, it waits for them, and says so to the lead. */
  interrupted: boolean;
};

export type HarnessEvent =
  /** A verified message for this teammate; `busy` says whether the model is mid-turn. */
  | { type: 'delivered'; envelope: Envelope; busy: boolean }
  /** It sent something the lead will read (a message to the lead, a broadcast, a finish request). */
  | { type: 'reported' }
  | { type: 'asked'; kind: RequestKind; requestId: string }
  | { type: 'agreed_to_shut_down' }
  /** The lead granted this exact call "always" in answer to this teammate's own request. */
  | { type: 'granted_always'; call: string }
  | { type: 'status'; status: MemberStatus }
  | { type: 'ready' }
  | { type: 'turn_start' }
  | { type: 'tool_done' }
  | { type: 'idle'; lastText: string }
  | { type: 'stop'; how: 'completed' | 'stopped'; lastText: string };

export type HarnessEffect =
  /** Record the new status in the roster. */
  | { type: 'status'; status: MemberStatus }
  /** Record the mode it now works in on the roster (the team panel and `teams status` show it). */
  | { type: 'mode'; mode: PermissionMode }
  /** Tell the model. */
  | { type: 'notice'; text: string }
  /** Something refused that is not the model's to handle: logged and audited. */
  | { type: 'problem'; what: string; reason: string }
  /** Hand a permission decision to the tool call waiting for it. */
  | { type: 'permission'; requestId: string; answer: PermissionAnswer }
  | { type: 'idle_notification'; summary: string | undefined; reason?: string }
  /** End the step under way; no further one starts. */
  | { type: 'interrupt' }
  /** The user's interrupt: end the turn under way, start nothing, and tell the model `note` with its next input. */
  | { type: 'halt'; note: string }
  /** Stop the process: tell the lead how the task ended, then exit. */
  | { type: 'stop'; how: 'completed' | 'stopped'; lastText: string; task: { id: string; subject: string } };

export type Step = { state: HarnessState; effects: HarnessEffect[] };

export function initialHarness(options: { name: string; mode: PermissionMode; planMode: boolean; rules: PermissionRules }): HarnessState {
  return {
    // Plan mode starts unapproved and read-only; otherwise the given mode applies.
    mode: options.planMode ? 'plan' : options.mode,
    planApproved: !options.planMode,
    planRejections: 0,
    stopping: false,
    task: { id: options.name, subject: options.name },
    status: 'starting',
    reported: false,
    alwaysAllowed: new Set(),
    rules: options.rules,
    stopped: false,
    interrupted: false,
  };
}

function withStatus(state: HarnessState, status: MemberStatus, effects: HarnessEffect[] = []): Step {
  if (status === state.status) return { state, effects };
  return { state: { ...state, status }, effects: [...effects, { type: 'status', status }] };
}

function stop(state: HarnessState, how: 'completed' | 'stopped', lastText: string): Step {
  if (state.stopped) return { state, effects: [] };
  return { state: { ...state, stopped: true }, effects: [{ type: 'stop', how, lastText, task: { id: state.task.id, subject: state.task.subject } }] };
}

/** Pure: the harness's next state and what it must do, for one event. */
export function step(state: HarnessState, event: HarnessEvent): Step {
  switch (event.type) {
    case 'delivered':
      return delivered(state, event.envelope, event.busy);
    case 'reported':
      return { state: { ...state, reported: true }, effects: [] };
    case 'asked':
      return { state: { ...state, awaiting: { kind: event.kind, requestId: event.requestId } }, effects: [] };
    case 'agreed_to_shut_down':
      return { state: { ...state, stopping: 'shutdown' }, effects: [] };
    case 'granted_always':
      return { state: { ...state, alwaysAllowed: new Set([...state.alwaysAllowed, event.call]) }, effects: [] };
    case 'status':
      return withStatus(state, event.status);
    case 'ready':
      return state.status === 'starting' ? withStatus(state, 'idle') : { state, effects: [] };
    case 'turn_start':
      // A turn starts on new input: an interrupt that found no turn to end (an idle compaction) is past.
      return withStatus(state.interrupted ? { ...state, interrupted: false } : state, 'working');
    case 'tool_done':
      // Agreed to stop: this step is finished, so no further one starts.
      return { state, effects: state.stopping ? [{ type: 'interrupt' }] : [] };
    case 'idle':
      return idle(state, event.lastText);
    case 'stop':
      return stop(state, event.how, event.lastText);
  }
}

/** A verified message, as its kind says it acts at a teammate (`atTeammate` in its file under protocol/kinds/). */
function delivered(before: HarnessState, envelope: Envelope, busy: boolean): Step {
  const reaction = atTeammate(envelope, before);
  if (reaction.halt) return interrupted(before, busy);
  if (reaction.rules) return rulesSet(before, envelope.id, reaction.rules);
  let state: HarnessState = { ...before, ...reaction.state };
  if (reaction.task) state = { ...state, task: reaction.task };
  if (state.awaiting && 'request_id' in envelope && envelope.request_id === state.awaiting.requestId) state = { ...state, awaiting: undefined };
  const effects: HarnessEffect[] = [];
  if (state.mode !== before.mode) effects.push({ type: 'mode', mode: state.mode });
  if (reaction.permission) {
    const { requestId, ...answer } = reaction.permission;
    effects.push({ type: 'permission', requestId, answer });
  }
  if (reaction.notice) {
    state = { ...state, reported: false };
    effects.push({ type: 'notice', text: reaction.notice });
  }
  if (state.stopping && !busy) {
    const stopped = stop(state, 'completed', '');
    return { state: stopped.state, effects: [...effects, ...stopped.effects] };
  }
  return { state, effects };
}

/**
 * The user's signed interrupt: the turn under way ends and none starts until new input comes.
 * Idle (or already stopping), there is nothing to interrupt and nothing to tell the model.
 */
function interrupted(state: HarnessState, busy: boolean): Step {
  if (!busy || state.stopped) return { state, effects: [] };
  return { state: { ...state, interrupted: true }, effects: [{ type: 'halt', note: INTERRUPTED_NOTE }] };
}

/**
 * The lead's signed rules, replacing the ones held: the next tool call is decided by them. Only
 * the policy's parse makes rules of the text; one bad rule refuses the whole set (half a set
 * could drop a deny rule), and the rules held stay. The model is not told, and no turn starts.
 */
function rulesSet(state: HarnessState, id: string, rules: NonNullable<TeammateReaction['rules']>): Step {
  const parsed = RulesText.safeParse(rules);
  if (!parsed.success) {
    return { state, effects: [{ type: 'problem', what: `refused rules_set ${id}; the rules held stay`, reason: describeIssues(parsed.error, 'rules') }] };
  }
  return { state: { ...state, rules: parsed.data }, effects: [] };
}

function idle(before: HarnessState, lastText: string): Step {
  const state = before.interrupted ? { ...before, interrupted: false } : before;
  if (state.stopping) return stop(state, state.stopping === 'finish' ? 'completed' : 'stopped', lastText);
  if (state.awaiting) return withStatus(state, 'awaiting_approval');
  if (before.interrupted) {
    // The user stopped it and will say what next: the lead hears it is idle, and nothing for its model to act on.
    const next = withStatus(state, 'idle');
    return { state: next.state, effects: [...next.effects, { type: 'idle_notification', summary: undefined, reason: 'interrupted by the user; waiting for their next message' }] };
  }
  const summary = state.reported ? undefined : lastText || undefined;
  const next = withStatus(state, 'idle');
  return { state: next.state, effects: [...next.effects, { type: 'idle_notification', summary }] };
}
