import { loadScript, modelLabel, startOfflineServer } from '../offline/index.js';
import { ModelClient, type ModelClientOptions } from './client.js';
import type { ModelSettings } from './settings.js';

/**
 * The one place an agent process gets its model from. Offline, it starts this process's
 * own offline server (a teammate keeps working even if the lead's process goes away).
 */

export type OpenModel = {
  client: ModelClient;
  /** What to show as the model's name; the offline model is labelled as such. */
  label: string;
  /** Stops the offline server, if one was started. */
  close(): Promise<void>;
  /** The offline endpoint this process serves, for its teammates to share. */
  offlineURL?: string;
};

export type OpenModelOptions = Pick<ModelClientOptions, 'maxRetries' | 'streamRetryDelayMs' | 'timeoutMs'>;

export async function openModel(settings: ModelSettings, options: OpenModelOptions = {}): Promise<OpenModel> {
  const label = modelLabel(settings.model);
  if (!settings.offline && settings.apiKey !== undefined) {
    const client = new ModelClient({ ...options, model: settings.model, apiKey: settings.apiKey, baseURL: settings.baseURL });
    return { client, label, close: async () => undefined };
  }
  if (settings.offlineURL !== undefined) {
    const client = new ModelClient({ ...options, model: settings.model, apiKey: 'offline', baseURL: settings.offlineURL });
    return { client, label, close: async () => undefined };
  }
  // Loaded first: a broken script is reported before any socket is opened.
  const script = loadScript(settings.offlineScript);
  const server = await startOfflineServer({ script });
  // The SDK insists on a credential; the offline server ignores it.
  const client = new ModelClient({ ...options, model: settings.model, apiKey: 'offline', baseURL: server.url });
  return { client, label, close: () => server.close(), offlineURL: server.url };
}
