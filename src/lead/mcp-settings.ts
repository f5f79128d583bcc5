import * as z from 'zod';
import { Refused, describeIssues } from '../lib/index.js';
import { McpServers } from '../tools/index.js';
import { readJson, settingsPath } from './project-settings.js';

/**
 * The project's MCP servers: `mcpServers` in `<home>/settings.json`, in Claude Code's shape
 * (tools/mcp/config.ts). Read by the lead alone, under the state root no agent's tools or
 * sandbox reach; a teammate is handed what the lead read when it is spawned, so no teammate
 * can choose or change the servers it runs. Read apart from the rules and hooks: a mistake
 * here must not cost the project its deny rules.
 */
const McpFile = z.looseObject({ mcpServers: McpServers });

/** The servers of settings already read as JSON; throws, naming `where` and the field (`mcpServers.git.args`), when malformed. */
export function mcpServersOf(settings: unknown, where: string): McpServers {
  const parsed = McpFile.safeParse(settings);
  if (!parsed.success) throw new Refused(`${where}: ${describeIssues(parsed.error, 'settings')}`);
  return parsed.data.mcpServers;
}

/** The project's servers; none when there is no file or no section. */
export function loadProjectMcpServers(home: string): McpServers {
  const path = settingsPath(home);
  return mcpServersOf(readJson(path), path);
}
