import { COMMAND_ACTIONS, COMMAND_NAMES } from '../commands.js';
import { LEAD } from '../../protocol/index.js';
import { appendShown, emptyView, showView, viewLogBatch } from './view.js';
import { reduceLeadEvent } from './lead-events.js';
import { complete, editLine, EMPTY_LINE, lineOf } from './line.js';
import { decideFailed, deciding, openReason, select, toggleExpand, previewLoaded } from './queue.js';
import { closeRule, editRule, openRule, ruleInvalid } from './rule-input.js';
import type { State, UiAction } from './types.js';
import { append } from './items.js';
import { EXIT_WINDOW_MS } from './exit-window.js';
import { describeStoreStatus } from '../../store/index.js';
import { NOTHING_SPENT } from '../../model/index.js';
import { rosterSpending } from './selectors.js';

const HISTORY_LIMIT = 200;

/** ↑ (-1) goes back in the history, ↓ (+1) forward and, past the newest, to the line being typed. */
function browseHistory(state: State, direction: -1 | 1): State {
  if (state.history.length === 0) return state;
  const from = state.historyIndex ?? state.history.length;
  const to = Math.max(0, from + direction);
  const draft = state.historyIndex === undefined ? state.input.text : state.draft;
  if (to >= state.history.length) return { ...state, historyIndex: undefined, input: lineOf(draft), draft: '' };
  return { ...state, historyIndex: to, input: lineOf(state.history[to] ?? ''), draft };
}

function lineSubmitted(state: State): State {
  const text = state.input.text.trim();
  const history = text === '' || state.history.at(-1) === text ? state.history : [...state.history, text].slice(-HISTORY_LIMIT);
  return { ...state, history, historyIndex: undefined, draft: '', input: EMPTY_LINE, hint: undefined };
}

function completeInput(state: State): State {
  const names = state.members.map((m) => m.name);
  const { line, candidates } = complete(state.input, { commands: COMMAND_NAMES, actions: COMMAND_ACTIONS, members: names });
  const hint = candidates.length > 0 ? candidates.join('  ') : line === state.input ? 'nothing to complete' : undefined;
  return { ...state, input: line, hint };
}

/** The one place state changes: pure, so every transition is tested without a terminal. */
export function reduce(state: State, action: UiAction): State {
  switch (action.type) {
    case 'lead_event':
      return reduceLeadEvent(state, action.event);
    case 'tick': {
      // The "again to exit" hint goes once its window has passed.
      const lapsed = state.exitArmedAt !== undefined && action.now - state.exitArmedAt > EXIT_WINDOW_MS;
      return lapsed ? { ...state, now: action.now, exitArmedAt: undefined, hint: undefined } : { ...state, now: action.now };
    }
    case 'edit':
      if (state.focus === 'reason' && state.reason) return { ...state, reason: { ...state.reason, ...editLine(state.reason, action.edit) } };
      if (state.focus === 'rule' && state.rule) return { ...state, rule: { ...state.rule, ...editLine(state.rule, action.edit), error: undefined } };
      return { ...state, input: editLine(state.input, action.edit), hint: undefined };
    case 'history':
      return browseHistory(state, action.direction);
    case 'complete':
      return completeInput(state);
    case 'line_submitted':
      return lineSubmitted(state);
    case 'focus':
      if (action.focus === 'input') return { ...state, focus: 'input', reason: undefined, rule: undefined, expanded: false };
      return { ...state, focus: 'queue', hint: undefined };
    case 'select':
      return select(state, action.delta);
    case 'toggle_expand':
      return toggleExpand(state);
    case 'preview_loaded':
      return previewLoaded(state, action.requestId, action.lines);
    case 'open_reason':
      return openReason(state);
    case 'close_reason':
      return { ...state, reason: undefined, focus: 'queue' };
    case 'open_rule':
      return openRule(state, action.suggestion);
    case 'edit_rule':
      return editRule(state);
    case 'rule_invalid':
      return ruleInvalid(state, action.error);
    case 'close_rule':
      return closeRule(state);
    case 'deciding':
      return deciding(state, action.requestId);
    case 'decide_failed':
      return decideFailed(state, action.requestId, action.message);
    case 'append':
      return appendShown(state, action.items);
    case 'members':
      return { ...state, members: action.members };
    case 'clear':
      // The shown view is cleared: the lead's transcript, or what is kept of a teammate's.
      if (state.view !== LEAD) return { ...state, views: { ...state.views, [state.view]: { ...(state.views[state.view] ?? emptyView(state.view)), items: [] } }, epoch: state.epoch + 1 };
      return { ...state, transcript: [], epoch: state.epoch + 1 };
    case 'open_picker': {
      // The session the lead is in is listed, marked, but the first one offered is another.
      const other = action.choices.findIndex((c) => !c.current);
      return { ...state, picker: { choices: action.choices, selected: Math.max(0, other) }, focus: 'picker', hint: undefined };
    }
    case 'picker_select': {
      const picker = state.picker;
      if (!picker) return state;
      const last = picker.choices.length - 1;
      return { ...state, picker: { ...picker, selected: Math.min(last, Math.max(0, picker.selected + action.delta)) } };
    }
    case 'close_picker':
      return { ...state, picker: undefined, focus: 'input' };
    case 'session_spending':
      return { ...state, spentBefore: action.spent, leadSpent: NOTHING_SPENT, usageAtStart: rosterSpending(state.members) };
    case 'view':
      return showView(state, action.name);
    case 'agent_log':
      return viewLogBatch(state, action.name, action.batch);
    case 'tasks':
      return { ...state, tasks: action.tasks };
    case 'toggle_tasks':
      return { ...state, tasksShown: !state.tasksShown };
    case 'toggle_detail':
      return { ...state, detailed: !state.detailed, epoch: state.epoch + 1 };
    case 'hint':
      return { ...state, hint: action.text };
    case 'quit_requested':
      return state.phase === 'running' ? { ...state, phase: 'stopping', focus: 'input', reason: undefined, rule: undefined } : state;
    case 'force_requested':
      return state.phase === 'stopping' ? { ...state, phase: 'forcing' } : state;
    case 'stopped':
      return { ...state, phase: 'stopped' };
    case 'exit_armed':
      return { ...state, exitArmedAt: action.at, hint: 'Press Ctrl+C again to exit' };
    case 'store_status': {
      // Said once in the transcript per change, and held in the header while it lasts.
      const { status } = action;
      const line = describeStoreStatus(status);
      const said = append(state, status.state === 'down' ? { kind: 'error', text: line } : { kind: 'info', text: line });
      return { ...said, storeDown: status.state === 'down' ? line : undefined };
    }
  }
}
