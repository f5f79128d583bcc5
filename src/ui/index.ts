// The Ink REPL: it renders state and dispatches actions; nothing else imports ink or react.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { callRow } from './call-row.js';
export { startRepl } from './start.js';
