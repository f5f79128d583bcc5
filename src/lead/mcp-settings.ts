import * as z from 'zod';
import { Refused, describeIssues } from '../lib/index.js';
import { McpServers } from '../tools/index.js';
import { readSettingsJson, settingsFiles } from './settings-layers.js';

/**
 * The project's MCP servers: `mcpServers` in the settings layers (settings-layers.ts), in Claude
 * Code's shape (tools/mcp/config.ts); a server named in a later layer (local over project over
 * user) replaces one of the same name. Read by the lead alone, where no agent's tools or sandbox
 * reach; a teammate is handed what the lead read when it is spawned, so no teammate can choose
 * or change the servers it runs. Read apart from the rules and hooks: a mistake here must not
 * cost the project its deny rules.
 */
const McpFile = z.looseObject({ mcpServers: McpServers });

/** The servers of settings already read as JSON; throws, naming `where` and the field (`mcpServers.git.args`), when malformed. */
export function mcpServersOf(settings: unknown, where: string): McpServers {
  const parsed = McpFile.safeParse(settings);
  if (!parsed.success) throw new Refused(`${where}: ${describeIssues(parsed.error, 'settings')}`);
  return parsed.data.mcpServers;
}

/** Every layer's servers together; none when no layer has any. */
export function loadProjectMcpServers(home: string): McpServers {
  return Object.assign({}, ...settingsFiles(home).map(({ file }) => mcpServersOf(readSettingsJson(file), file))) as McpServers;
}
