import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { errnoCode, readRegularFile } from '../lib/index.js';
import { parseAgentDefinition, type AgentDefinition } from './agent-definition.js';

/**
 * The project's agent definitions, `<home>/agents/<name>.md` (`.teams/agents/` by default, beside
 * the project's settings.json). Read by the lead and the CLI, outside any sandbox: each file is
 * opened without following a link, must be a regular file, and is refused past a size cap.
 */
export const AGENTS_DIR = 'agents';
/** Per file: a role's prompt is a page or two. A longer one is refused, not cut: half a role is a different role. */
export const MAX_DEFINITION_BYTES = 32 * 1024;

export type AgentDefinitions = {
  /** The readable ones, by name. */
  definitions: AgentDefinition[];
  /** One line per file that could not be used: its path and why. */
  problems: string[];
};

export function agentsDir(home: string): string {
  return join(home, AGENTS_DIR);
}

/** Every definition in `<home>/agents/`; none when the folder is missing. */
export function loadAgentDefinitions(home: string): AgentDefinitions {
  const dir = agentsDir(home);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.md')).sort();
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') return { definitions: [], problems: [] };
    return { definitions: [], problems: [`${dir}: cannot be read (${code ?? 'unknown error'})`] };
  }
  const definitions: AgentDefinition[] = [];
  const problems: string[] = [];
  for (const name of names) {
    const read = readDefinition(join(dir, name), name.slice(0, -'.md'.length));
    if (read.ok) definitions.push(read.definition);
    else problems.push(read.error);
  }
  return { definitions, problems };
}

/** The definition called `name`; an error naming the file and field, or the ones there are when there is none. */
export function findAgentDefinition(home: string, name: string): { ok: true; definition: AgentDefinition } | { ok: false; error: string } {
  const { definitions, problems } = loadAgentDefinitions(home);
  const found = definitions.find((definition) => definition.name === name);
  if (found) return { ok: true, definition: found };
  const file = join(agentsDir(home), `${name}.md`);
  const problem = problems.find((line) => line.startsWith(`${file}:`));
  if (problem) return { ok: false, error: `agent definition '${name}' cannot be used: ${problem}` };
  const known = definitions.map((definition) => definition.name);
  return { ok: false, error: `no agent definition '${name}' (${known.length === 0 ? `none in ${agentsDir(home)}` : `available: ${known.join(', ')}`})` };
}

function readDefinition(file: string, expectedName: string): { ok: true; definition: AgentDefinition } | { ok: false; error: string } {
  const read = readRegularFile(file, MAX_DEFINITION_BYTES);
  if (!read.ok) return { ok: false, error: `${file}: ${read.reason}` };
  if (read.truncated) return { ok: false, error: `${file}: larger than ${MAX_DEFINITION_BYTES / 1024} KiB` };
  return parseAgentDefinition(read.text, file, expectedName);
}

/** The definitions as the lead's model reads them, so that it can pick one for spawn_teammate's `agent`. */
export function withAgentDefinitions(system: string, definitions: readonly AgentDefinition[]): string {
  if (definitions.length === 0) return system;
  const lines = definitions.map((definition) => `- ${definition.name}: ${definition.description}`);
  return `${system}\n\n# Agent definitions\n\nThe project defines these roles (spawn_teammate with agent: "<name>" starts a teammate as one; its definition gives the role's prompt, tools, model and mode):\n${lines.join('\n')}`;
}

/** A teammate's system prompt with the role's prompt from the definition it was spawned as, after the rules of the team. */
export function withAgentRole(system: string, role: { name: string; prompt: string } | undefined): string {
  if (role === undefined) return system;
  return `${system}\n\n# Your role: ${role.name}\n\nFrom the project's agent definition '${role.name}', where it does not conflict with the rules above:\n\n${role.prompt}`;
}
