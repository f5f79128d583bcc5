/**
 * How an MCP server's tools are named to the model and in permission rules, as Claude Code
 * names them: `mcp__<server>__<tool>`, and `mcp__<server>` in a rule for all of a server's
 * tools. A server's name holds no `__`, so the first `__` after the prefix ends it and a rule
 * for `mcp__git` never covers the tools of a server named `git__x`. Pure.
 */
export const MCP_PREFIX = 'mcp__';

/** A server's name in the settings: letters, digits, `-` and single `_`, as it must be read back out of a tool's name. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
/** A tool's own name as a server gives it; the whole name must also fit the model API's 64 characters. */
const MCP_TOOL_NAME = /^[A-Za-z0-9_-]+$/;
const MAX_TOOL_NAME = 64;

export type McpName = `mcp__${string}`;

/** The name the model calls a server's tool by, or why it cannot have one. */
export function mcpToolName(server: string, tool: string): { ok: true; name: McpName } | { ok: false; error: string } {
  if (!MCP_SERVER_NAME.test(server)) return { ok: false, error: `server name '${server}' may hold only letters, digits, '-' and single '_'` };
  if (!MCP_TOOL_NAME.test(tool)) return { ok: false, error: `tool name '${tool}' may hold only letters, digits, '-' and '_'` };
  const name: McpName = `${MCP_PREFIX}${server}__${tool}`;
  if (name.length > MAX_TOOL_NAME) return { ok: false, error: `${name} is longer than ${MAX_TOOL_NAME} characters` };
  return { ok: true, name };
}

/** The server and tool a model-facing name speaks of; undefined for a name that is not an MCP tool's. */
export function parseMcpName(name: string): { server: string; tool?: string } | undefined {
  if (!name.startsWith(MCP_PREFIX)) return undefined;
  const rest = name.slice(MCP_PREFIX.length);
  const split = rest.indexOf('__');
  const server = split === -1 ? rest : rest.slice(0, split);
  if (!MCP_SERVER_NAME.test(server)) return undefined;
  if (split === -1) return { server };
  const tool = rest.slice(split + 2);
  return MCP_TOOL_NAME.test(tool) ? { server, tool } : undefined;
}

/** Whether a call's tool name is an MCP server's tool. */
export function isMcpTool(name: string): boolean {
  return parseMcpName(name)?.tool !== undefined;
}

/** A rule's text for an MCP tool or server (`mcp__git`, `mcp__git__status`), or why it is not one. */
export function mcpRuleTool(text: string): { tool: McpName } | string {
  if (!parseMcpName(text)) return `'${text}' is not an MCP rule: write mcp__<server> or mcp__<server>__<tool>, with no pattern`;
  return { tool: text as McpName };
}

/** Whether a rule naming `ruleTool` speaks of calls of `tool`: the same tool, or the server's every tool. */
export function mcpRuleCovers(ruleTool: string, tool: string): boolean {
  const rule = parseMcpName(ruleTool);
  const call = parseMcpName(tool);
  if (!rule || !call || call.tool === undefined) return false;
  return rule.server === call.server && (rule.tool === undefined || rule.tool === call.tool);
}
