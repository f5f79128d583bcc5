import { Refused } from '../lib/index.js';
import { openFileStore } from './file/index.js';
import { parseStoreDescriptor, teamRoot } from './store-descriptor.js';
import type { TeamStore } from './team-store.js';

/** What every store needs besides its descriptor: this machine's state root, and the team. */
export type OpenStoreOptions = { home: string; team: string };

/**
 * Open the store a descriptor names (store-descriptor.ts), for `options.team`. Only a
 * process's entry calls this (the CLI's context, a teammate's main), once, and hands the store
 * on: everything else sees only the TeamStore. A backend is loaded only when named.
 */
export async function openStore(descriptor: string | undefined, options: OpenStoreOptions): Promise<TeamStore> {
  const parsed = parseStoreDescriptor(descriptor);
  if (parsed.kind === 'file') return openFileStore({ root: teamRoot(options.home, options.team), team: options.team });
  // Wired on merge, once src/store/redis/index.ts exists: return (await import('./redis/index.js')).openRedisStore(parsed.url, options.team);
  throw new Refused('the Redis store is not available in this build');
}
