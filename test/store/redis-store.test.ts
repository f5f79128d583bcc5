import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { connectRedis, redisTarget, type RedisClient } from '../../src/store/redis/connection.js';
import { teamKeys } from '../../src/store/redis/keys.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { storeConformance } from './conformance.js';
import { RedisDescriptor, openStore } from './redis-store-opener.js';

let server: RedisServer;
let client: RedisClient;
before(async () => {
  server = await startRedisServer();
  client = await connectRedis(redisTarget(server.url));
});
after(async () => {
  client.destroy();
  await server.close();
});
let teams = 0;

// LEAD: the other groups (requests, audit, sessions, tasks) join once h/redis-journals is merged.
storeConformance('the Redis store', {
  async create() {
    return JSON.stringify({ url: server.url, team: `t${teams++}` });
  },
  open: openStore,
  opener: fileURLToPath(new URL('./redis-store-opener.js', import.meta.url)),
  // A message cut short, straight into the mailbox stream, as a writer that is not this store might leave it.
  async injectUnreadable(descriptor, agent) {
    const { team } = RedisDescriptor.parse(JSON.parse(descriptor));
    await client.sendCommand(['XADD', teamKeys(team).mailbox(agent), '*', 'm', '{"type":"message","id":"']);
  },
  async damageTask() {
    throw new Error('the tasks are not yet on Redis');
  },
}, { only: ['roster', 'mailboxes', 'mailbox races'] });

