import { LEAD, keyValues } from '../../protocol/index.js';
import { oneLine } from '../../lib/index.js';
import type { LogBatch } from '../../store/index.js';
import { append } from './items.js';
import { eventSentence, EMPTY_FOLD, foldLog, type TranscriptEntry } from '../../present/index.js';
import type { AgentView, LiveTurnState, NewItem, State, TranscriptItem } from './types.js';

/** A view keeps this many items: older ones are in `teams logs`, and a switch reprints them all. */
const VIEW_ITEMS = 1000;
/** A tool result expanded (Ctrl+O) shows this many characters of it, at most. */
export const DETAIL_CHARS = 4000;

/** One folded transcript entry as a line of the view. */
function itemOf(name: string, entry: TranscriptEntry): NewItem {
  switch (entry.kind) {
    case 'text':
      return { kind: 'said', from: name, text: entry.text };
    case 'input':
      return { kind: 'notice', text: entry.text };
    case 'tool':
      return { kind: 'tool', name: entry.name, input: keyValues(entry.input), result: oneLine(entry.result, 100), isError: entry.isError, detail: entry.result.slice(0, DETAIL_CHARS) };
    case 'status':
    case 'compacted':
      return { kind: 'info', text: eventSentence(entry, name) };
    case 'stopped':
      return { kind: entry.reason === 'interrupted' ? 'info' : 'error', text: eventSentence(entry, name) };
    case 'error':
      return { kind: 'error', text: entry.text };
    case 'raw':
      return { kind: 'output', text: entry.text };
  }
}

export function emptyView(name: string): AgentView {
  return { name, items: [], nextId: 1, fold: EMPTY_FOLD, cursor: undefined };
}

/** Numbered onto a view's items, kept to the view's limit. */
function addToView(view: AgentView, fresh: NewItem[]): AgentView {
  if (fresh.length === 0) return view;
  const numbered = fresh.map((item, i) => ({ ...item, id: view.nextId + i }) as TranscriptItem);
  return { ...view, items: [...view.items, ...numbered].slice(-VIEW_ITEMS), nextId: view.nextId + numbered.length };
}

/**
 * What the REPL itself says (a command's answer, an error, a decision made): in the lead's
 * transcript, and also in the teammate's view when one is shown, so it is seen where it was asked.
 */
export function appendShown(state: State, items: NewItem[]): State {
  const withLead = append(state, ...items);
  const view = state.views[state.view];
  if (state.view === LEAD || !view) return withLead;
  return { ...withLead, views: { ...withLead.views, [state.view]: addToView(view, items) } };
}

/** A batch of a teammate's log, folded into its view (shown or not: only the shown one is followed). */
export function viewLogBatch(state: State, name: string, batch: LogBatch): State {
  const view = state.views[name] ?? emptyView(name);
  const { fold, entries } = foldLog(view.fold, batch.lines);
  const fresh: NewItem[] = [];
  if (batch.skipped && view.cursor === undefined) fresh.push({ kind: 'info', text: `earlier lines of ${name}'s log are not shown here: teams logs ${name}` });
  fresh.push(...entries.map((entry) => itemOf(name, entry)));
  const next: AgentView = { ...addToView(view, fresh), fold, cursor: batch.next };
  return { ...state, views: { ...state.views, [name]: next } };
}

/** The agents a view can show, in the order Shift+↓ goes through them: the lead, then the roster's. */
export function viewable(state: Pick<State, 'members'>): string[] {
  return [LEAD, ...state.members.map((m) => m.name).filter((name) => name !== LEAD)];
}

/** The agent `delta` steps from the one shown, going round. */
export function neighbour(state: Pick<State, 'members' | 'view'>, delta: 1 | -1): string {
  const names = viewable(state);
  const at = Math.max(0, names.indexOf(state.view));
  return names[(at + delta + names.length) % names.length] ?? LEAD;
}

/** Show another agent: a fresh <Static> prints its transcript (the screen was cleared). */
export function showView(state: State, name: string): State {
  if (name === state.view) return state;
  return { ...state, view: name, epoch: state.epoch + 1, views: name === LEAD || state.views[name] ? state.views : { ...state.views, [name]: emptyView(name) } };
}

/** The items the transcript shows: the lead's, or the teammate's being viewed. */
export function shownItems(state: Pick<State, 'view' | 'views' | 'transcript'>): TranscriptItem[] {
  return state.view === LEAD ? state.transcript : (state.views[state.view]?.items ?? []);
}

/** The teammate's turn under way, as the live area shows it; busy while its roster status says it works. */
export function viewLive(view: AgentView | undefined, status: string | undefined): LiveTurnState {
  const fold = view?.fold ?? EMPTY_FOLD;
  return { busy: status === 'working', text: fold.text, tools: fold.calls.map((call) => ({ id: call.id, name: call.name, input: keyValues(call.input) })) };
}
