import { reduce } from './state/reduce.js';
import type { State, UiAction } from './state/types.js';

/**
 * The REPL's state outside React: the runtime's events and the keys both dispatch here, and
 * the App reads it with useSyncExternalStore. No component keeps a copy of it.
 */
export type Store = {
  getState(): State;
  dispatch(action: UiAction): void;
  subscribe(listener: () => void): () => void;
};

export function createStore(initial: State): Store {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action) {
      const next = reduce(state, action);
      if (next === state) return;
      state = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
