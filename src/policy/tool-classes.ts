/**
 * What each tool does, by name, for the permission policy. The lead's and a teammate's
 * `shutdown_response` and `plan_approval` are different tools with one name (seed 003);
 * both variants of each only coordinate, so one class fits both.
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
  | 'shell';

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
  plan_approval: 'protocol',
  request_shutdown: 'protocol',
  request_review: 'protocol',
  review_response: 'protocol',
  // The task board only coordinates: it never changes the working directory, so it never asks.
  task_create: 'protocol',
  task_update: 'protocol',
  task_list: 'read',
  task_claim: 'protocol',
} as const satisfies Record<string, ToolClass>;

export type ToolName = keyof typeof TOOL_CLASSES;

export function toolClass(name: string): ToolClass | undefined {
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
