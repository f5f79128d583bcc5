import * as z from 'zod';
import { inertLine, quoted } from '../lib/index.js';

/** The lead's fixed name. Every team has exactly one lead. */
export const LEAD = 'lead';
/** The recipient that means "every other member". */
export const BROADCAST = '*';

export const AGENT_NAME_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;

/** Why a name is refused, or undefined when it is a valid agent name. The name is quoted escaped: it may hold anything. */
export function agentNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'agent name is empty';
  if (name.length > 32) return `agent name '${inertLine(name.slice(0, 32))}…' is longer than 32 characters`;
  if (AGENT_NAME_PATTERN.test(name)) return undefined;
  if (/[/\\.]/.test(name)) return `agent name ${quoted(name)} may not contain '/', '\\' or '.'`;
  return `agent name ${quoted(name)} must match ${AGENT_NAME_PATTERN.source} (lowercase letter first, then a-z, 0-9, '_' or '-')`;
}

export const AgentName = z.string().superRefine((name, ctx) => {
  const problem = agentNameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
export type AgentName = z.infer<typeof AgentName>;

/** A message goes to one agent or, for plain broadcasts only, to everyone. */
export const Recipient = z.union([z.literal(BROADCAST), AgentName]);
export type Recipient = z.infer<typeof Recipient>;
