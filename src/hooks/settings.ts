import * as z from 'zod';

/**
 * The hooks section of the project's settings: the human's own shell commands, run by the lead
 * process on team events, as Claude Code's hooks or git hooks are. They come only from
 * `<home>/settings.json`, which no agent's tools or sandbox can reach, so no agent can add one.
 *
 *   "hooks": { "task_completed": [{ "command": "npm test", "timeout": 120, "write": true }] }
 *
 * A hook runs in the sandbox, like an agent's command: it reads what teammates wrote, and a
 * test suite runs their code, so the human's hook must not become a way for a teammate's code
 * to run as the human. Read-only and offline unless its entry says `write` or `network`.
 */
export const HOOK_EVENTS = ['teammate_idle', 'task_created', 'task_completed', 'plan_submitted', 'permission_requested'] as const;
export const HookEvent = z.enum(HOOK_EVENTS);
export type HookEvent = z.infer<typeof HookEvent>;

/** The events whose hook may say no (exit 2): the teammate keeps working, or the task stays in progress. */
export const BLOCKING_EVENTS: ReadonlySet<HookEvent> = new Set(['teammate_idle', 'task_completed']);

export const DEFAULT_HOOK_TIMEOUT_S = 60;

/** Strict: a misspelt field ("comand", "timout") would otherwise be a hook that silently does something else. */
export const HookSpec = z.strictObject({
  command: z.string().trim().min(1, 'the command is empty'),
  /** Seconds, as in Claude Code's settings; then its process group is killed. */
  timeout: z.number().positive('the timeout must be a positive number of seconds').max(86_400, 'the timeout is at most a day (86400 s)').default(DEFAULT_HOOK_TIMEOUT_S),
  /** The working directory writable for it (a build, a coverage report): `teams doctor` lists such hooks. */
  write: z.boolean().default(false),
  /** The network on for it: `teams doctor` lists such hooks. */
  network: z.boolean().default(false),
});
export type HookSpec = z.infer<typeof HookSpec>;

/** Strict too: an unknown event name ("task_complete") is a hook that would never run. */
export const HooksSection = z
  .strictObject(Object.fromEntries(HOOK_EVENTS.map((event) => [event, z.array(HookSpec).optional()])) as Record<HookEvent, z.ZodOptional<z.ZodArray<typeof HookSpec>>>)
  .default({});
export type HooksConfig = Partial<Record<HookEvent, HookSpec[]>>;

/** Each hook whose entry grants it write or network, as a person reads it (`teams doctor`). */
export function describeHookPowers(hooks: HooksConfig): string[] {
  return HOOK_EVENTS.flatMap((event) =>
    (hooks[event] ?? [])
      .filter((hook) => hook.write || hook.network)
      .map((hook) => `${event}: \`${hook.command}\` (${[hook.write ? 'write' : '', hook.network ? 'network' : ''].filter(Boolean).join(', ')})`),
  );
}
