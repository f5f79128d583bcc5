import * as z from 'zod';

/**
 * How much of the machine one command may take: a hostile command (a fork bomb, a memory hog,
 * a file filling /tmp) must not be able to starve the lead, the other teammates or the human.
 * The project's settings (`{"sandbox": {...}}` in settings.json) may change them; the
 * defaults are ones a laptop lives with. `env`: variables the project's commands need beyond
 * the allowlist (command-env.ts), e.g. NODE_OPTIONS.
 */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const SandboxLimits = z.object({
  memory_mb: z.number().int().min(16).default(4096),
  processes: z.number().int().min(4).default(512),
  tmp_mb: z.number().int().min(1).default(1024),
  env: z.array(z.string().regex(ENV_NAME, 'an environment variable name')).default([]),
});
export type SandboxLimits = z.infer<typeof SandboxLimits>;

export const DEFAULT_LIMITS: SandboxLimits = SandboxLimits.parse({});

export const MB = 1024 * 1024;

export function describeLimits(limits: SandboxLimits): string {
  return `memory ${limits.memory_mb} MB, ${limits.processes} processes, /tmp ${limits.tmp_mb} MB`;
}
