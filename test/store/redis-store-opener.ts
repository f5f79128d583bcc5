import * as z from 'zod';
import { openRedisStore } from '../../src/store/redis/index.js';
import type { TeamStore } from '../../src/store/team-store.js';

/** How the conformance suite names a Redis store to another process: the server's URL and the team. */
export const RedisDescriptor = z.object({ url: z.string().min(1), team: z.string().min(1) });

/** The Redis store's opener, imported by the suite's child processes too. */
export async function openStore(descriptor: string): Promise<TeamStore> {
  const { url, team } = RedisDescriptor.parse(JSON.parse(descriptor));
  return openRedisStore(url, team);
}
