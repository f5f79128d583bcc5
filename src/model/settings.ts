import { join, resolve } from 'node:path';
import type { Model } from '@anthropic-ai/sdk/resources/messages';
import * as z from 'zod';
import { OFFLINE_MODEL } from '../offline/index.js';
import { describeIssues, quoted, PACKAGE_ROOT } from '../lib/index.js';
import { MAX_CONTEXT_WINDOW, MIN_CONTEXT_WINDOW } from './context-window.js';

/**
 * Which model an agent talks to and how. Every agent process resolves the same settings:
 * the lead from its flags and environment, teammates from the environment the lead gives
 * them (childModelEnv), so a whole team runs online or offline alike; online, each teammate
 * may run a model of its own (teammateModel), given to it as TEAMS_MODEL.
 */

/** The SDK's named models, without its open `string` escape hatch. */
type KnownModel = Model extends infer M ? (M extends string ? (string extends M ? never : M) : never) : never;

/** The newest Sonnet the SDK names; typed so an SDK upgrade that drops it fails to compile. */
export const DEFAULT_MODEL: KnownModel = 'claude-sonnet-5-5';

/** The script the offline model plays unless told otherwise. */
export const DEFAULT_OFFLINE_SCRIPT = join(PACKAGE_ROOT, 'prompts', 'offline', 'demo.json');

/** Why the scripted offline model answers, so the UI can say so. */
export type OfflineReason = 'flag' | 'env' | 'model' | 'no-api-key';

export type ModelSettings = {
  model: string;
  offline: boolean;
  offlineReason: OfflineReason | undefined;
  apiKey: string | undefined;
  /** ANTHROPIC_BASE_URL, online only: offline, each process starts its own offline server. */
  baseURL: string | undefined;
  offlineScript: string;
  /** Offline: the team's offline endpoint, when the lead already runs one (teammates share it). */
  offlineURL: string | undefined;
  /** --context-window or TEAMS_CONTEXT_WINDOW: overrides the model's own window (contextWindowOf). */
  contextWindow: number | undefined;
};

export type ModelFlags = { model?: string; offline?: boolean; offlineScript?: string; contextWindow?: string };

export class SettingsError extends Error {
  override name = 'SettingsError';
}

/** An empty variable means unset: `FOO= teams` must not count as a value. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:@/-]*$/;
/** A model id as --model, TEAMS_MODEL and a teammate's own model are checked. */
export const ModelId = z.string().regex(MODEL_ID, 'must be a model id such as claude-sonnet-5-5');

/** Why `id` is not a model id, or undefined when it is one. */
export function modelIdProblem(id: string): string | undefined {
  const parsed = ModelId.safeParse(id);
  return parsed.success ? undefined : `invalid model id ${quoted(id)}: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`;
}

/**
 * The model a teammate runs: the one it was spawned with, else the lead's. Offline every
 * agent is the offline model, whatever was asked for: a Claude id would be shown and priced
 * as Claude while the script answered.
 */
export function teammateModel(settings: ModelSettings, requested: string | undefined): string {
  return settings.offline ? settings.model : (requested ?? settings.model);
}

const ContextWindow = z
  .string()
  .regex(/^\d+$/, 'must be a whole number of tokens')
  .transform(Number)
  .pipe(z.number().int().min(MIN_CONTEXT_WINDOW, `must be at least ${MIN_CONTEXT_WINDOW} tokens`).max(MAX_CONTEXT_WINDOW, `must be at most ${MAX_CONTEXT_WINDOW} tokens`));

const Env = z.object({
  ANTHROPIC_API_KEY: optional(z.string().trim().min(1)),
  ANTHROPIC_BASE_URL: optional(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })),
  TEAMS_MODEL: optional(ModelId),
  TEAMS_OFFLINE: optional(z.enum(['0', '1', 'true', 'false'], { error: 'must be 1, 0, true or false' })),
  TEAMS_OFFLINE_SCRIPT: optional(z.string()),
  TEAMS_CONTEXT_WINDOW: optional(ContextWindow),
  TEAMS_OFFLINE_URL: optional(z.url({ protocol: /^http$/, hostname: /^127\.0\.0\.1$/, error: 'must be an http URL on 127.0.0.1' })),
});

function fail(error: z.ZodError, what: string): never {
  const problems = describeIssues(error, what);
  throw new SettingsError(`invalid model settings: ${problems}`);
}

function offlineReasonOf(flags: ModelFlags, env: z.infer<typeof Env>, requested: string | undefined): OfflineReason | undefined {
  if (flags.offline === true) return 'flag';
  if (env.TEAMS_OFFLINE === '1' || env.TEAMS_OFFLINE === 'true') return 'env';
  if (requested === OFFLINE_MODEL) return 'model';
  if (env.ANTHROPIC_API_KEY === undefined) return 'no-api-key';
  return undefined;
}

export function resolveModelSettings(flags: ModelFlags = {}, env: NodeJS.ProcessEnv = process.env): ModelSettings {
  const parsedEnv = Env.safeParse(env);
  if (!parsedEnv.success) fail(parsedEnv.error, 'environment');
  const e = parsedEnv.data;
  const flagModel = flags.model === undefined ? undefined : ModelId.safeParse(flags.model);
  if (flagModel && !flagModel.success) fail(flagModel.error, '--model');
  const flagWindow = flags.contextWindow === undefined ? undefined : ContextWindow.safeParse(flags.contextWindow);
  if (flagWindow && !flagWindow.success) fail(flagWindow.error, '--context-window');

  const requested = flagModel?.data ?? e.TEAMS_MODEL;
  const offlineReason = offlineReasonOf(flags, e, requested);
  const offline = offlineReason !== undefined;
  return {
    // Offline there is one model: a Claude id would be priced and labelled as Claude.
    model: offline ? OFFLINE_MODEL : (requested ?? DEFAULT_MODEL),
    offline,
    offlineReason,
    apiKey: offline ? undefined : e.ANTHROPIC_API_KEY,
    // A proxy URL is for Claude; the offline model never sends anything off this machine.
    baseURL: offline ? undefined : e.ANTHROPIC_BASE_URL,
    offlineScript: resolve(flags.offlineScript ?? e.TEAMS_OFFLINE_SCRIPT ?? DEFAULT_OFFLINE_SCRIPT),
    offlineURL: offline ? e.TEAMS_OFFLINE_URL : undefined,
    contextWindow: flagWindow?.data ?? e.TEAMS_CONTEXT_WINDOW,
  };
}

/**
 * The variables a teammate process needs to resolve the same settings. Explicit about
 * offline both ways, because the child also inherits the parent's ANTHROPIC_API_KEY.
 */
export function childModelEnv(settings: ModelSettings, offlineURL?: string): Record<string, string> {
  const env: Record<string, string> = {
    TEAMS_MODEL: settings.model,
    TEAMS_OFFLINE: settings.offline ? '1' : '0',
    TEAMS_OFFLINE_SCRIPT: settings.offlineScript,
  };
  if (settings.apiKey !== undefined) env.ANTHROPIC_API_KEY = settings.apiKey;
  if (settings.baseURL !== undefined) env.ANTHROPIC_BASE_URL = settings.baseURL;
  // Only an override: a teammate on another model goes by that model's own window.
  if (settings.contextWindow !== undefined) env.TEAMS_CONTEXT_WINDOW = String(settings.contextWindow);
  // One offline endpoint per team, the lead's: a teammate is then only an SDK client, as it is online.
  if (settings.offline && offlineURL !== undefined) env.TEAMS_OFFLINE_URL = offlineURL;
  return env;
}
