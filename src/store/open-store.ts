import { openFileStore } from './file/index.js';
import { parseStoreDescriptor, teamRoot } from './store-descriptor.js';
import type { StoreStatus, TeamStore } from './team-store.js';

/**
 * What every store needs besides its descriptor: this machine's state root, and the team.
 * `onStatus` hears when a store across the network (Redis) goes down and comes back; calls
 * wait meanwhile, and go on when it returns.
 */
export type OpenStoreOptions = { home: string; team: string; onStatus?: (status: StoreStatus) => void };

/**
 * Open the store a descriptor names (store-descriptor.ts), for `options.team`. Only a
 * process's entry calls this (the CLI's context, a teammate's main), once, and hands the store
 * on: everything else sees only the TeamStore. A backend is loaded only when named.
 */
export async function openStore(descriptor: string | undefined, options: OpenStoreOptions): Promise<TeamStore> {
  const parsed = parseStoreDescriptor(descriptor);
  if (parsed.kind === 'file') return openFileStore({ root: teamRoot(options.home, options.team), team: options.team });
  // Loaded only when named: a one-machine team never loads the Redis client.
  const { openRedisStore } = await import('./redis/index.js');
  return openRedisStore(parsed.url, options.team, options.onStatus);
}
