import type { SlashCommand } from './commands.js';

/**
 * Whose context `/compact` compacts and with what instructions: with instructions, the first
 * word is an agent only if it names one of `members`; otherwise it is the instructions' first word.
 */
export function compactTarget(command: Extract<SlashCommand, { name: 'compact' }>, members: readonly string[]): { name?: string; instructions?: string } {
  const { agent, instructions } = command;
  if (instructions === undefined) return agent === undefined ? {} : { name: agent };
  if (agent !== undefined && members.includes(agent)) return { name: agent, instructions };
  return { instructions: agent === undefined ? instructions : `${agent} ${instructions}` };
}
