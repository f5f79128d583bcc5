// Teammate processes as the lead starts them: the supervisor and the IPC signals between parent and
// child.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { ParentSignal, tellLead } from './ipc.js';
export { Supervisor } from './supervisor.js';
export type { ChildExit, TeammateSpec } from './supervisor.js';
