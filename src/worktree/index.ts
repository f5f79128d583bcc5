// Git worktrees for teammates: creating, landing, merging, discarding, and what is left over.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { worktreeAction } from './actions.js';
export type { WorktreeAction } from './actions.js';
export { detachWorktreeHead } from './head.js';
export { collectWorktrees, leftoverWorktrees } from './leftovers.js';
export type { Leftover } from './leftovers.js';
export { createWorktree, describeSettled, sealWorktreeConfig, settleWorktree, worktreeBrief, worktreeExists } from './worktree.js';
