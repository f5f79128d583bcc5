import * as z from 'zod';
import { Refused } from '../../lib/index.js';
import { agentNameProblem } from '../../protocol/index.js';
import { teamNameProblem } from '../roster.js';
import type { StoreStatus, TeamStore } from '../team-store.js';
import { connectRedis, redisTarget, type RedisClient } from './connection.js';
import { memberKeys, teamKeys } from './keys.js';
import { RedisTransport } from './mailbox-transport.js';
import { RedisAgentLogs } from './agent-logs.js';
import { RedisAudit } from './audit.js';
import { RedisRequests } from './requests.js';
import { serverNow } from './server-clock.js';
import { RedisSessions } from './sessions.js';
import { RedisTasks } from './tasks.js';
import { OpenThings, type RedisTeam } from './redis-team.js';
import { RedisRoster } from './roster.js';
import { RedisHosts } from './hosts.js';

const Scan = z.tuple([z.string(), z.array(z.string())]);

/** Delete every key matching `pattern` (SCAN, then UNLINK in batches: no one command blocks the server long). */
async function deleteMatching(client: RedisClient, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = Scan.parse(await client.sendCommand(['SCAN', cursor, 'MATCH', pattern, 'COUNT', '1000']));
    if (keys.length > 0) await client.sendCommand(['UNLINK', ...keys]);
    cursor = next;
  } while (cursor !== '0');
}

/**
 * Open team `team`'s store on the Redis server at `url` (redis://[user:password@]host:port). A
 * URL beyond loopback must carry a password. `onStatus` hears when Redis goes down and comes
 * back; meanwhile every call waits and then goes on.
 */
export async function openRedisStore(url: string, team: string, onStatus?: (status: StoreStatus) => void): Promise<TeamStore> {
  const problem = teamNameProblem(team);
  if (problem) throw new Refused(problem);
  const target = redisTarget(url);
  const client = await connectRedis(target, onStatus);
  const open = new OpenThings();
  const keys = teamKeys(team);
  const redis: RedisTeam = { team, keys, client, target, keep: (thing) => open.keep(thing) };
  return {
    team,
    roster: new RedisRoster(redis),
    mailboxes: new RedisTransport(redis),
    requests: new RedisRequests(redis),
    tasks: new RedisTasks(redis),
    audit: new RedisAudit(redis),
    sessions: new RedisSessions(redis),
    agentLogs: new RedisAgentLogs(redis),
    hosts: new RedisHosts(redis),
    now: () => serverNow(client),
    async deleteMember(agent) {
      const bad = agentNameProblem(agent);
      if (bad) throw new Refused(bad);
      await client.sendCommand(['UNLINK', ...memberKeys(keys, agent)]);
    },
    async deleteTeam() {
      await deleteMatching(client, keys.pattern);
    },
    async close() {
      // Whatever the owners left open: blocked reads end at once, leases are let go.
      await open.closeAll();
      client.destroy();
    },
  };
}
