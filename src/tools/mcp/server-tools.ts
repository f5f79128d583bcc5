import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mcpToolName } from '../../policy/index.js';

/** A server's tool as the model is offered it: its name there, its own name, and its JSON input schema. */
export type McpToolEntry = { name: string; tool: string; description: string; inputSchema: Record<string, unknown> };

// What one server may put in front of the model: a server is someone else's code, and whatever
// it lists is sent with every model call.
const MAX_TOOLS = 100;
const MAX_PAGES = 10;
const MAX_DESCRIPTION = 2_000;
const MAX_SCHEMA_CHARS = 20_000;

/** Every tool the server lists, page by page; each that cannot be offered is set aside with why. */
export async function listServerTools(client: Client, server: string): Promise<{ tools: McpToolEntry[]; skipped: string[] }> {
  const tools: McpToolEntry[] = [];
  const skipped: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const listed = await client.listTools(cursor === undefined ? undefined : { cursor });
    for (const tool of listed.tools) {
      const named = mcpToolName(server, tool.name);
      if (!named.ok) skipped.push(named.error);
      else if (tools.some((t) => t.name === named.name)) skipped.push(`${named.name}: listed twice`);
      else if (tools.length >= MAX_TOOLS) skipped.push(`${named.name}: more than ${MAX_TOOLS} tools`);
      else if (JSON.stringify(tool.inputSchema).length > MAX_SCHEMA_CHARS) skipped.push(`${named.name}: its input schema is over ${MAX_SCHEMA_CHARS} characters`);
      else {
        const description = (tool.description ?? tool.title ?? `The tool ${tool.name} of the MCP server ${server}.`).slice(0, MAX_DESCRIPTION);
        tools.push({ name: named.name, tool: tool.name, description, inputSchema: tool.inputSchema });
      }
    }
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  return { tools, skipped };
}
