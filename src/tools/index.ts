// The agents' tools, one file each, schema first, with their I/O passed in.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { CappedOutput, capToolResult } from './capped-output.js';
export { realPathOfCall } from './confine.js';
export { MissingFileError, realFileIO } from './files.js';
export { realShellIO } from './shell.js';
export { taskDetail, taskLine } from './task-format.js';
export type { LeadBoardIO, LeadTeamIO, SpawnSpec, Spawned, TeammateBoardIO, TeammateTeamIO } from './team-io.js';
export type { ToolResult } from './tool.js';
export { teammateToolName, teammateToolNames, teammateToolsAllowed } from './tool-filter.js';
export { leadTools, runTool, toolSpecs } from './toolsets.js';
export { McpHub, McpServers, describeMcpProblem, describeMcpServers, failedMcpServers } from './mcp/index.js';
export type { McpServerAbout, McpServerStatus } from './mcp/index.js';
