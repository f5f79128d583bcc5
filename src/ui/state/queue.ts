import type { RequestRecord } from '../../protocol/index.js';
import type { PreviewLine } from '../../present/index.js';
import { longerThanExpanded, PREVIEW_ROWS } from '../format.js';
import { append } from './items.js';
import { EMPTY_LINE } from './line.js';
import type { State } from './types.js';

const clamp = (value: number, length: number) => Math.max(0, Math.min(value, length - 1));

export function selectedRequest(state: State): RequestRecord | undefined {
  return state.queue[state.selected];
}

/**
 * The queue as the runtime now reports it. The selection follows its request when it is
 * still there; a request that left (decided here, elsewhere, or at its deadline) takes its
 * reason input with it, and focus comes back to the input line once nothing is waiting.
 */
export function queueChanged(state: State, pending: RequestRecord[]): State {
  const selectedId = selectedRequest(state)?.request_id;
  const kept = pending.findIndex((r) => r.request_id === selectedId);
  const selected = kept >= 0 ? kept : clamp(state.selected, pending.length);
  const stillPending = (id: string) => pending.some((r) => r.request_id === id);
  let next: State = {
    ...state,
    queue: pending,
    selected,
    expanded: kept >= 0 && state.expanded,
    deciding: state.deciding.filter(stillPending),
  };
  if (state.reason && !stillPending(state.reason.requestId)) {
    next = append({ ...next, reason: undefined, focus: 'queue' }, { kind: 'info', text: `${state.reason.requestId} was decided elsewhere; nothing was sent` });
  }
  if (state.rule && !stillPending(state.rule.requestId)) {
    next = append({ ...next, rule: undefined, focus: 'queue' }, { kind: 'info', text: `${state.rule.requestId} was decided elsewhere; no rule was saved` });
  }
  if (next.focus === 'queue' && pending.length === 0) next = { ...next, focus: 'input' };
  return next;
}

export function select(state: State, delta: number): State {
  if (state.queue.length === 0) return state;
  const selected = clamp(state.selected + delta, state.queue.length);
  return selected === state.selected ? state : { ...state, selected, expanded: false };
}

/** `n`: the inline input for the reason or feedback of a rejection. */
export function openReason(state: State): State {
  const request = selectedRequest(state);
  if (!request || state.deciding.includes(request.request_id)) return state;
  return { ...state, focus: 'reason', reason: { ...EMPTY_LINE, requestId: request.request_id } };
}

export function deciding(state: State, requestId: string): State {
  if (state.deciding.includes(requestId)) return state;
  const focus = state.focus === 'reason' || state.focus === 'rule' ? 'queue' : state.focus;
  return { ...state, deciding: [...state.deciding, requestId], reason: undefined, rule: undefined, focus };
}

export function decideFailed(state: State, requestId: string, message: string): State {
  const next = { ...state, deciding: state.deciding.filter((id) => id !== requestId) };
  return append(next, { kind: 'error', text: `${requestId}: ${message}` });
}

/**
 * `v`: the whole plan or command. One too long for the queue's view is also printed, in full,
 * above. A permission request shows its preview instead, once the controller has read it.
 */
export function toggleExpand(state: State): State {
  const request = selectedRequest(state);
  if (!request) return state;
  const next = { ...state, expanded: !state.expanded, preview: undefined };
  if (!next.expanded || request.tool || !longerThanExpanded(request.summary)) return next;
  return append(next, { kind: 'output', text: `${request.kind} request ${request.request_id} from ${request.from}, in full:\n${request.summary}` });
}

/** A preview read for `v`: kept while its request is the one expanded; a long one is also printed whole above. */
export function previewLoaded(state: State, requestId: string, lines: PreviewLine[]): State {
  const request = selectedRequest(state);
  if (!state.expanded || request?.request_id !== requestId) return state;
  const next = { ...state, preview: { requestId, lines } };
  if (lines.length <= PREVIEW_ROWS) return next;
  const whole = lines.map((l) => l.text).join('\n');
  return append(next, { kind: 'output', text: `${request.kind} request ${requestId} from ${request.from}, preview in full:\n${whole}` });
}
