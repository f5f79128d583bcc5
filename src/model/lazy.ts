import type { ModelClient, ModelEvent, ModelTurn, TurnRequest } from './client.js';
import type { OpenModel } from './connect.js';
import type { ModelSettings } from './settings.js';
import { modelLabel } from '../offline/index.js';

export type LazyModel = {
  client: Pick<ModelClient, 'turn' | 'model'>;
  label: string;
  /** Start loading now (the SDK is most of an agent's start-up time); turns wait for it. */
  preload(): void;
  close(): Promise<void>;
};

/**
 * The model, loaded on demand: an agent subscribes to its mailbox and reports ready first,
 * then loads the SDK (and, offline, starts its local server) while it waits for work. A load
 * failure surfaces on the first turn, as that turn's error.
 */
export function lazyModel(settings: ModelSettings): LazyModel {
  let loading: Promise<OpenModel> | undefined;
  const load = () => (loading ??= import('./connect.js').then(({ openModel }) => openModel(settings)));
  return {
    label: modelLabel(settings.model),
    client: {
      model: settings.model,
      turn: async (request: TurnRequest, onEvent: (event: ModelEvent) => void): Promise<ModelTurn> => (await load()).client.turn(request, onEvent),
    },
    preload: () => void load().catch(() => undefined),
    async close() {
      if (!loading) return;
      const opened = await loading.catch(() => undefined);
      await opened?.close();
    },
  };
}
