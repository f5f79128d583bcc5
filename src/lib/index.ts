// Generic helpers with no idea of a team: errors, event streams, terminal text, git, files written
// whole or under a lock, watching files, pids and process groups.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { addCounts } from './add-counts.js';
export { asError } from './as-error.js';
export { errorMessage } from './error-message.js';
export { writeFileAtomic } from './atomic-file.js';
export { errnoCode, isMissing } from './errno.js';
export { EventStream } from './event-stream.js';
export { isProcessAlive, withFileLock } from './file-lock.js';
export type { FileLockOptions } from './file-lock.js';
export { GitError, HARNESS_IDENTITY, git, repositoryRoot } from './git.js';
export type { GitResult } from './git.js';
export { Held } from './held.js';
export { killProcessGroup } from './kill-group.js';
export { diffLines, splitLines, toHunks } from './line-diff.js';
export { mappedStack } from './mapped-stack.js';
export { PACKAGE_ROOT } from './package-root.js';
export { isRunning, processStartTime } from './proc-start.js';
export { Refused } from './refused.js';
export { readRegularFile } from './regular-file.js';
export { Replies } from './replies.js';
export { createSerial } from './serial.js';
export type { Serial } from './serial.js';
export { inertJson, inertLine, inertText, oneLine, quoted } from './terminal-text.js';
export { createDrainRunner, lookOnChange, rethrowLater, watchAppendsForHints, watchForHints } from './wakeup.js';
export type { DrainRunner } from './wakeup.js';
export { describeIssues } from './zod-issues.js';
