import type { Key } from 'ink';
import { suggestRule, parseRule, type PermissionRule } from '../policy/index.js';
import { selectedRequest } from './state/queue.js';
import { neighbour } from './state/view.js';
import { EXIT_WINDOW_MS } from './state/exit-window.js';
import { nextLeadMode } from '../lead/index.js';
import type { PermissionMode } from '../protocol/index.js';
import type { LineEdit, State, UiAction } from './state/types.js';

/** What a key asks of the world beyond the state: the controller carries these out. */
export type Effect =
  | { type: 'line'; text: string }
  | { type: 'decide'; requestId: string; approve: boolean; note?: string; always?: boolean }
  | { type: 'preview'; requestId: string }
  /** Save an allow rule to the project's settings, then approve the request it was made for. */
  | { type: 'allow_rule'; requestId: string; rule: PermissionRule }
  /** Esc: the lead's turn, or the viewed teammate's. */
  | { type: 'interrupt'; agent: string }
  /** Show another agent's session (the screen is redrawn). */
  | { type: 'view'; name: string }
  /** Shift+Tab: the lead's permission mode, set to the next in the cycle (a `lead_mode` op). */
  | { type: 'lead_mode'; mode: PermissionMode }
  /** /resume's picker: the lead goes on with that session (the screen starts over with it). */
  | { type: 'resume'; session: string }
  /** Ctrl+O: tool results whole or as one line (the screen is redrawn). */
  | { type: 'toggle_detail' }
  | { type: 'stop' }
  | { type: 'force_stop' };

export type KeyResult = { actions: UiAction[]; effects: Effect[] };

const nothing: KeyResult = { actions: [], effects: [] };
const act = (...actions: UiAction[]): KeyResult => ({ actions, effects: [] });
const edit = (e: LineEdit): KeyResult => act({ type: 'edit', edit: e });

/** The keys that edit a line, the input line and the reason input alike. */
function lineEdit(input: string, key: Key): KeyResult | undefined {
  if (key.backspace || key.delete) return edit({ op: 'backspace' });
  if (key.leftArrow) return edit({ op: 'left' });
  if (key.rightArrow) return edit({ op: 'right' });
  if (key.home || (key.ctrl && input === 'a')) return edit({ op: 'home' });
  if (key.end || (key.ctrl && input === 'e')) return edit({ op: 'end' });
  if (key.ctrl && input === 'u') return edit({ op: 'kill' });
  if (key.ctrl || key.meta || input === '') return undefined;
  return edit({ op: 'insert', text: input });
}

function onInputLine(state: State, input: string, key: Key): KeyResult {
  if (key.return) {
    const text = state.input.text.trim();
    return text === '' ? nothing : { actions: [{ type: 'line_submitted' }], effects: [{ type: 'line', text }] };
  }
  if (key.escape) return { actions: [], effects: [{ type: 'interrupt', agent: state.view }] };
  // Tab completes what is being typed; on an empty line it moves to the queue, when anything waits there.
  if (key.tab) {
    if (state.input.text.trim() !== '') return act({ type: 'complete' });
    return state.queue.length > 0 ? act({ type: 'focus', focus: 'queue' }) : act({ type: 'hint', text: 'no requests wait on you (Tab on an empty line goes to them when some do)' });
  }
  if (key.upArrow) return act({ type: 'history', direction: -1 });
  if (key.downArrow) return act({ type: 'history', direction: 1 });
  return lineEdit(input, key) ?? nothing;
}

/** Keys the queue answers to; any other typed text goes back to the input line, typed there. */
const QUEUE_LETTERS = new Set(['y', 'n', 'v', 'a', 'j', 'k']);

function onQueue(state: State, input: string, key: Key): KeyResult {
  if (key.escape || key.tab) return act({ type: 'focus', focus: 'input' });
  // Typing meant for the line is not swallowed: it lands there, focus with it.
  if (!key.ctrl && !key.meta && input !== '' && !QUEUE_LETTERS.has(input)) return act({ type: 'focus', focus: 'input' }, { type: 'edit', edit: { op: 'insert', text: input } });
  if (key.upArrow || input === 'k') return act({ type: 'select', delta: -1 });
  if (key.downArrow || input === 'j') return act({ type: 'select', delta: 1 });
  const request = selectedRequest(state);
  if (!request || state.deciding.includes(request.request_id)) return nothing;
  const id = request.request_id;
  switch (input) {
    case 'y':
      return { actions: [{ type: 'deciding', requestId: id }], effects: [{ type: 'decide', requestId: id, approve: true }] };
    case 'n':
      return act({ type: 'open_reason' });
    case 'v':
      // Opening a permission's view asks for its preview, which reads the file it would change.
      if (request.tool && !state.expanded) return { actions: [{ type: 'toggle_expand' }], effects: [{ type: 'preview', requestId: id }] };
      return act({ type: 'toggle_expand' });
    case 'a':
      if (request.kind !== 'permission') return act({ type: 'hint', text: '`a` approves a permission always; this is a ' + request.kind + ' request' });
      return act({ type: 'open_rule', suggestion: (request.tool && suggestRule(request.tool.name, request.tool.input, state.cwd)) ?? '' });
    default:
      return nothing;
  }
}

function onReason(state: State, input: string, key: Key): KeyResult {
  const reason = state.reason;
  if (!reason || key.escape) return act({ type: 'close_reason' });
  if (key.return) {
    const note = reason.text.trim();
    return {
      actions: [{ type: 'deciding', requestId: reason.requestId }],
      effects: [{ type: 'decide', requestId: reason.requestId, approve: false, ...(note === '' ? {} : { note }) }],
    };
  }
  if (key.tab || key.upArrow || key.downArrow) return nothing;
  return lineEdit(input, key) ?? nothing;
}

/** After `a`: s this exact call for the session (the "always" approval), p a rule for the project, edited then confirmed. */
function onRule(state: State, input: string, key: Key): KeyResult {
  const rule = state.rule;
  if (!rule || key.escape) return act({ type: 'close_rule' });
  const id = rule.requestId;
  if (rule.stage === 'choose') {
    if (input === 's' || input === '1') return { actions: [{ type: 'deciding', requestId: id }], effects: [{ type: 'decide', requestId: id, approve: true, always: true }] };
    if (input === 'p' || input === '2') return act({ type: 'edit_rule' });
    return nothing;
  }
  if (key.return) {
    const parsed = parseRule(rule.text);
    if (typeof parsed === 'string') return act({ type: 'rule_invalid', error: parsed });
    return { actions: [{ type: 'deciding', requestId: id }], effects: [{ type: 'allow_rule', requestId: id, rule: parsed }] };
  }
  if (key.tab || key.upArrow || key.downArrow) return nothing;
  return lineEdit(input, key) ?? nothing;
}

/** /resume's picker, as Claude Code's: ↑/↓ (k/j) choose, Enter goes on with it, Esc closes; other typing goes back to the line. */
function onPicker(state: State, input: string, key: Key): KeyResult {
  const picker = state.picker;
  if (!picker || key.escape || key.tab) return act({ type: 'close_picker' });
  if (key.upArrow || input === 'k') return act({ type: 'picker_select', delta: -1 });
  if (key.downArrow || input === 'j') return act({ type: 'picker_select', delta: 1 });
  if (key.return) {
    const chosen = picker.choices[picker.selected];
    return chosen ? { actions: [{ type: 'close_picker' }], effects: [{ type: 'resume', session: chosen.id }] } : act({ type: 'close_picker' });
  }
  if (!key.ctrl && !key.meta && input !== '') return act({ type: 'close_picker' }, { type: 'edit', edit: { op: 'insert', text: input } });
  return nothing;
}

/**
 * Ctrl+C as in Claude Code: with text typed it clears the line; on an empty line the first asks
 * for a second, which within EXIT_WINDOW_MS shuts the team down; while it shuts down, one more
 * forces it.
 */
function ctrlC(state: State, now: number): KeyResult {
  if (state.phase === 'stopping') return { actions: [{ type: 'force_requested' }], effects: [{ type: 'force_stop' }] };
  if (state.phase !== 'running') return nothing;
  if (state.focus === 'input' && state.input.text !== '') return act({ type: 'edit', edit: { op: 'kill' } });
  if (state.exitArmedAt !== undefined && now - state.exitArmedAt <= EXIT_WINDOW_MS) return { actions: [{ type: 'quit_requested' }], effects: [{ type: 'stop' }] };
  return act({ type: 'exit_armed', at: now });
}

/**
 * The whole keyboard map, in one place: a key, given the state, becomes state actions and
 * effects. Pure: the App's one useInput hook dispatches what it returns.
 */
export function interpretKey(state: State, input: string, key: Key, now: number = Date.now()): KeyResult {
  if (key.ctrl && input === 'c') return ctrlC(state, now);
  // While the team shuts down, only a second Ctrl+C means anything.
  if (state.phase !== 'running') return nothing;
  // Whose session is shown, from anywhere: Shift+↑/↓ as in Claude Code, Ctrl+P/N where a terminal keeps Shift+arrows to itself.
  if ((key.shift && key.downArrow) || (key.ctrl && input === 'n')) return { actions: [], effects: [{ type: 'view', name: neighbour(state, 1) }] };
  if ((key.shift && key.upArrow) || (key.ctrl && input === 'p')) return { actions: [], effects: [{ type: 'view', name: neighbour(state, -1) }] };
  if (key.ctrl && input === 'o') return { actions: [], effects: [{ type: 'toggle_detail' }] };
  // The lead's permission mode, as in Claude Code; never to bypass (only a start in it gives that).
  if (key.tab && key.shift && (state.focus === 'input' || state.focus === 'queue')) return { actions: [], effects: [{ type: 'lead_mode', mode: nextLeadMode(state.leadMode) }] };
  // The task board's panel, as in Claude Code.
  if (key.ctrl && input === 't') return act({ type: 'toggle_tasks' });
  switch (state.focus) {
    case 'input':
      return onInputLine(state, input, key);
    case 'queue':
      return onQueue(state, input, key);
    case 'reason':
      return onReason(state, input, key);
    case 'rule':
      return onRule(state, input, key);
    case 'picker':
      return onPicker(state, input, key);
  }
}
