import { isMcpTool, parseMcpName } from './mcp-names.js';

/**
 * What each tool does, by name, for the permission policy. A tool that sends a protocol kind
 * is named after that kind (`plan_approval_request`, `finish_request`): one name, one tool.
 */
export type ToolClass =
  /** Reads files or team state. */
  | 'read'
  /** Talks to teammates. */
  | 'message'
  /** Requests and answers of the team protocols: shutdown, plan approval, finish. */
  | 'protocol'
  /** Starts a teammate process. */
  | 'spawn'
  /** Changes files. */
  | 'edit'
  /** Runs a shell command: anything. */
  | 'shell'
  /** A tool of an MCP server (mcp-names.ts): it may do anything its server does, so it asks unless a rule allows it. */
  | 'mcp';

export const TOOL_CLASSES = {
  bash: 'shell',
  read_file: 'read',
  write_file: 'edit',
  edit_file: 'edit',
  list_teammates: 'read',
  send_message: 'message',
  broadcast: 'message',
  spawn_teammate: 'spawn',
  shutdown_request: 'protocol',
  shutdown_response: 'protocol',
  shutdown_status: 'read',
  plan_approval_request: 'protocol',
  plan_approval_response: 'protocol',
  finish_request: 'protocol',
  code_review_request: 'protocol',
  code_review_response: 'protocol',
  // The task board only coordinates: it never changes the working directory, so it never asks.
  task_create: 'protocol',
  task_update: 'protocol',
  task_list: 'read',
  task_claim: 'protocol',
} as const satisfies Record<string, ToolClass>;

export type ToolName = keyof typeof TOOL_CLASSES;

export function toolClass(name: string): ToolClass | undefined {
  if (isMcpTool(name)) return 'mcp';
  return Object.hasOwn(TOOL_CLASSES, name) ? TOOL_CLASSES[name as ToolName] : undefined;
}

/**
 * Tools that change nothing in the working directory, so plan mode offers them before a
 * plan is approved: reading, messaging, and the protocols (a teammate in plan mode must
 * still submit its plan and answer a shutdown request).
 */
export function isReadOnlyTool(name: string): boolean {
  const cls = toolClass(name);
  return cls === 'read' || cls === 'message' || cls === 'protocol';
}

/** What an MCP call asks, for the human: the server that will run it. */
export function describeMcpCall(name: string): string {
  const parsed = parseMcpName(name);
  return `${name}: the tool '${parsed?.tool ?? name}' of the MCP server '${parsed?.server ?? '?'}' (a rule allowing ${name} or mcp__${parsed?.server ?? '?'} lets it run unasked)`;
}
