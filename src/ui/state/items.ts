import type { NewItem, State, TranscriptItem } from './types.js';

/** Append finished items to the transcript, numbering them (the ids are <Static>'s keys). */
export function append(state: State, ...items: NewItem[]): State {
  if (items.length === 0) return state;
  const numbered = items.map((item, i) => ({ ...item, id: state.nextId + i }) as TranscriptItem);
  return { ...state, transcript: [...state.transcript, ...numbered], nextId: state.nextId + items.length };
}
