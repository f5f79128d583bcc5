import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { connectRedis, redisTarget, type RedisClient } from '../../src/store/redis/connection.js';
import { teamKeys } from '../../src/store/redis/keys.js';
import { rangeEntries } from '../../src/store/redis/stream-entries.js';
import { RECORD_FIELD } from '../../src/store/redis/stream-journal.js';
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
  // The task's creation entry cut short where it stands: a stream cannot change an entry, so it is
  // written again whole, every entry with its own id, that one's record cut.
  async damageTask(descriptor, id) {
    const { team } = RedisDescriptor.parse(JSON.parse(descriptor));
    const key = teamKeys(team).tasks;
    const entries = rangeEntries(await client.sendCommand(['XRANGE', key, '-', '+']));
    const created = entries.find((entry) => {
      const text = entry.fields?.get(RECORD_FIELD) ?? '';
      return text.includes('"event":"created"') && text.includes(`"task":{"id":"${id}"`);
    });
    if (!created) throw new Error(`no creation of task ${id} in ${key}`);
    const multi = client.multi();
    multi.addCommand(['DEL', key]);
    for (const entry of entries) {
      const text = entry.fields?.get(RECORD_FIELD) ?? '';
      multi.addCommand(['XADD', key, entry.id, RECORD_FIELD, entry === created ? text.slice(0, 30) : text]);
    }
    await multi.exec();
  },
});

