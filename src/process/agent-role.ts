import * as z from 'zod';
import { AgentName } from '../protocol/index.js';

/**
 * What an agent definition (.teams/agents/<name>.md) gives the teammate spawned as it, as the
 * lead read it: the role's prompt for its system prompt, and the tools it may call (our names;
 * absent: every tool). Handed over by the process that starts it, like its rules, so that the
 * teammate runs the role the lead listed, never a file it would read again itself.
 */
export const AgentRole = z.strictObject({
  name: AgentName,
  prompt: z.string().min(1).max(64 * 1024),
  tools: z.array(z.string().regex(/^[a-z_]{1,64}$/)).max(64).optional(),
});
export type AgentRole = z.infer<typeof AgentRole>;
