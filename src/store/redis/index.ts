// The Redis backend of the TeamStore, for a team spanning machines. Opened by the store's
// opener (`redis://…`) with a dynamic import, so a process on the file store never loads it.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { openRedisStore } from './redis-store.js';
