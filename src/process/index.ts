// Teammate processes as the lead starts them: the Spawner seam, the local supervisor, the router
// over several spawners, and the IPC signals between parent and child.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { AgentRole } from './agent-role.js';
export { ParentSignal, tellLead } from './ipc.js';
export { Supervisor } from './supervisor.js';
export { Spawners } from './spawners.js';
export { MCP_SERVERS_ENV, describeExit, waitForExits } from './spawner.js';
export type { ChildCompaction, ChildExit, Spawner, StartedProcess, TeammateSpec } from './spawner.js';
