// The file backend of the TeamStore. Only a process's entry opens it (the CLI's context, a
// teammate's main); everything else gets the TeamStore it returns.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { openFileStore } from './file-store.js';
