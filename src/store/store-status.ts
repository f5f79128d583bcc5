import type { StoreStatus } from './team-store.js';

/** A networked store's connection as one line for a person: down and retrying (calls wait), or back. */
export function describeStoreStatus(status: StoreStatus): string {
  if (status.state === 'up') return 'the team store is reachable again; carrying on';
  return `${status.reason}; retrying (calls wait until it is back)`;
}
