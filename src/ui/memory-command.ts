import { findProjectInstructions, loadAgentDefinitions, agentsDir } from '../agent/index.js';
import type { NewItem } from './state/types.js';

/**
 * `/memory`, as in Claude Code: what goes into the agents' system prompts besides the team's
 * rules. The project instructions (AGENTS.md, CLAUDE.md) from the working directory up to the
 * repository's root, and the agent definitions the lead's prompt lists, with any that cannot be
 * used and why. Read from disk now: an agent read them as it started, so an edit since then
 * reaches the next agent started (or /clear's fresh lead), not one already running.
 */
export function memoryList(cwd: string, home: string): NewItem[] {
  const instructions = findProjectInstructions(cwd);
  const { definitions, problems } = loadAgentDefinitions(home);
  const lines = ['Project instructions, in every agent\'s system prompt from its start (outermost first):'];
  if (instructions.length === 0) lines.push('  none: no AGENTS.md or CLAUDE.md from here up to the repository\'s root');
  for (const file of instructions) lines.push(`  ${file.path}  ${kib(Buffer.byteLength(file.text))}${file.truncated ? ' (cut at 32 KiB)' : ''}`);
  lines.push(`Agent definitions, listed in the lead's prompt (${agentsDir(home)}):`);
  if (definitions.length === 0 && problems.length === 0) lines.push('  none');
  for (const definition of definitions) lines.push(`  ${definition.name}  ${definition.description}`);
  for (const problem of problems) lines.push(`  cannot be used: ${problem}`);
  return [{ kind: 'output', text: lines.join('\n') }];
}

function kib(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}
