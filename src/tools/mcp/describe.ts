import type { McpServerStatus } from './server-connection.js';

/** The servers as lines a person reads (`/mcp`, `teams mcp list`): each server, its state, its tools. */
export function describeMcpServers(statuses: readonly McpServerStatus[]): string[] {
  if (statuses.length === 0) return ['No MCP servers: add them under "mcpServers" in .teams/settings.json or .mcp.json (docs/mcp.md).'];
  return statuses.flatMap((status) => {
    const head = `${status.server} (${status.transport}: ${status.target}): ${status.state}${status.error !== undefined && status.state !== 'ready' ? `: ${status.error}` : ''}`;
    const source = status.source === undefined ? [] : [`  configured in ${status.source}`];
    const tools = status.tools.map((tool) => `  ${tool.name}: ${firstLine(tool.description)}`);
    const skipped = status.skipped.map((why) => `  (not offered) ${why}`);
    return [head, ...source, ...tools, ...skipped];
  });
}

/** A failure or stop as a problem for the agent's log, the audit and the transcript: what, and why. */
export function describeMcpProblem(status: McpServerStatus): { what: string; reason: string } {
  return { what: `MCP server '${status.server}' ${status.state}`, reason: `${status.error ?? 'no reason given'}; going on without its tools` };
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

/** The servers that are not running, a line each, for the first screen of the REPL and `teams run`. */
export function failedMcpServers(hub: { statuses(): McpServerStatus[] } | undefined): string[] {
  return (hub?.statuses() ?? []).filter((status) => status.state === 'failed' || status.state === 'stopped').map((status) => {
    const { what, reason } = describeMcpProblem(status);
    return `${what}: ${reason}`;
  });
}
