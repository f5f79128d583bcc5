// A teammate process: its entry, its start, the harness (a pure reducer of its protocol state) and
// its I/O.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { leadBoardIO } from './board-io.js';
export { interrupted } from './permission-answer.js';
export type { PermissionAnswer } from './permission-answer.js';
export { leadProtocolState } from './protocol-state.js';
