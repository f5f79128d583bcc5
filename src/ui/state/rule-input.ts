import { selectedRequest } from './queue.js';
import { lineOf } from './line.js';
import type { State } from './types.js';

/** `a` on a permission request: the choice between this call for the session and a rule for the project. */
export function openRule(state: State, suggestion: string): State {
  const request = selectedRequest(state);
  if (!request || request.kind !== 'permission' || state.deciding.includes(request.request_id)) return state;
  return { ...state, focus: 'rule', rule: { ...lineOf(suggestion), requestId: request.request_id, stage: 'choose' } };
}

/** The project rule chosen: its pre-filled text becomes editable. */
export function editRule(state: State): State {
  return state.rule ? { ...state, rule: { ...state.rule, stage: 'edit' } } : state;
}

/** The parser refused the text: its sentence is shown, and the text kept for correction. */
export function ruleInvalid(state: State, error: string): State {
  return state.rule ? { ...state, rule: { ...state.rule, error } } : state;
}

export function closeRule(state: State): State {
  return { ...state, rule: undefined, focus: state.focus === 'rule' ? 'queue' : state.focus };
}
