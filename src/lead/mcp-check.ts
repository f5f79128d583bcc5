import type { TeamPaths } from '../team/index.js';
import { McpHub, type McpServerStatus } from '../tools/index.js';
import { leadLauncher, sandboxStatus } from './agent.js';
import { ProjectMcpServers } from './mcp-settings.js';
import { loadProjectSandbox } from './project-settings.js';

/**
 * `teams mcp list`: each of the project's servers started as the lead would start it (in the
 * sandbox, read-only and offline), asked for its tools, and closed; as Claude Code's own
 * `mcp list` checks each server's health. Throws, naming file and field, on a malformed section.
 */
export async function checkMcpServers(paths: TeamPaths, cwd: string): Promise<{ files: string[]; servers: McpServerStatus[] }> {
  const status = sandboxStatus(undefined, loadProjectSandbox(paths.home));
  const project = new ProjectMcpServers(paths.home, cwd, status.kind === 'bwrap');
  const { servers, about, failed } = project.load();
  const launch = leadLauncher(status, 'default', paths);
  const hub = await McpHub.started(servers, { launch, cwd, about, failed });
  try {
    return { files: project.files(), servers: hub.statuses() };
  } finally {
    await hub.close();
  }
}
