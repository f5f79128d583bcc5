// MCP servers' tools for an agent, through the official SDK's Client.
// Other folders import this folder only through src/tools/index.ts.
export { McpServers } from './config.js';
export { describeMcpProblem, describeMcpServers, failedMcpServers } from './describe.js';
export { McpHub } from './mcp-hub.js';
export type { McpServerAbout, McpServerStatus } from './server-connection.js';
