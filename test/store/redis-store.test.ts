import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as z from 'zod';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LEAD } from '../../src/protocol/names.js';
import { teamKeys } from '../../src/store/redis/keys.js';
import { openRedisStore } from '../../src/store/redis/index.js';
import type { TeamConfig } from '../../src/store/roster.js';
import { addMember, addMemberUsage } from '../../src/store/roster-changes.js';
import { DIST, spawnNode } from '../helpers/children.js';
import { rangeEntries } from '../../src/store/redis/stream-entries.js';
import { RECORD_FIELD } from '../../src/store/redis/stream-journal.js';
import { RedisForFile } from '../helpers/redis-server.js';
import { waitFor } from '../helpers/wait.js';
import { textMessage } from '../fixtures/mailbox-envelopes.js';
import { linesOf, storeConformance } from './conformance.js';
import { RedisDescriptor, openStore } from './redis-store-opener.js';

const redis = new RedisForFile();
let teams = 0;

storeConformance('the Redis store', {
  async create() {
    return JSON.stringify({ url: redis.server.url, team: `t${teams++}` });
  },
  open: openStore,
  opener: fileURLToPath(new URL('./redis-store-opener.js', import.meta.url)),
  // A message cut short, straight into the mailbox stream, as a writer that is not this store might leave it.
  async injectUnreadable(descriptor, agent) {
    const { team } = RedisDescriptor.parse(JSON.parse(descriptor));
    await redis.client.sendCommand(['XADD', teamKeys(team).mailbox(agent), '*', 'm', '{"type":"message","id":"']);
  },
  // The task's creation entry cut short where it stands: a stream cannot change an entry, so it is
  // written again whole, every entry with its own id, that one's record cut.
  async damageTask(descriptor, id) {
    const { team } = RedisDescriptor.parse(JSON.parse(descriptor));
    const key = teamKeys(team).tasks;
    const entries = rangeEntries(await redis.client.sendCommand(['XRANGE', key, '-', '+']));
    const created = entries.find((entry) => {
      const text = entry.fields?.get(RECORD_FIELD) ?? '';
      return text.includes('"event":"created"') && text.includes(`"task":{"id":"${id}"`);
    });
    if (!created) throw new Error(`no creation of task ${id} in ${key}`);
    const multi = redis.client.multi();
    multi.addCommand(['DEL', key]);
    for (const entry of entries) {
      const text = entry.fields?.get(RECORD_FIELD) ?? '';
      multi.addCommand(['XADD', key, entry.id, RECORD_FIELD, entry === created ? text.slice(0, 30) : text]);
    }
    await multi.exec();
  },
});

test('roster: concurrent updates from one process, through two stores, lose none', async () => {
  const team = `r${teams++}`;
  const [one, two] = [await openRedisStore(redis.server.url, team), await openRedisStore(redis.server.url, team)];
  try {
    await one.roster.ensure();
    const count = 25;
    await Promise.all([one, two].flatMap((store, which) =>
      Array.from({ length: count }, async (_, i) => {
        await addMember(store.roster, { name: `m${which}-${i}`, role: 'tester' });
        await addMemberUsage(store.roster, LEAD, { input_tokens: 1, output_tokens: 0 });
      })));
    const config = await two.roster.load();
    assert.equal(config?.members.length, 1 + 2 * count, 'every member added');
    assert.equal(config?.members.find((m) => m.name === LEAD)?.usage?.input_tokens, 2 * count, 'every usage counted');
  } finally {
    await one.close();
    await two.close();
  }
});

test('roster: a stored roster that does not parse is an error saying why, for load, update and watch', async () => {
  const team = `r${teams++}`;
  const store = await openRedisStore(redis.server.url, team);
  try {
    const key = teamKeys(team).roster;
    await redis.client.sendCommand(['HSET', key, 'json', '{"name":', 'version', '1']);
    await assert.rejects(store.roster.load(), new RegExp(`${key.replace(/[{}]/g, '\\$&')} is not valid JSON`));
    await assert.rejects(store.roster.update(() => undefined), /is not valid JSON/);
    await redis.client.sendCommand(['HSET', key, 'json', '{"name":"x"}']);
    await assert.rejects(store.roster.load(), /is not a valid team config: .*members/);
    const problems: Error[] = [];
    const seen: TeamConfig[] = [];
    const watch = await store.roster.watch((config) => seen.push(config), (error) => problems.push(error));
    assert.match(problems[0]?.message ?? '', /is not a valid team config/, 'the watch reports it and goes on');
    await redis.client.sendCommand(['DEL', key]);
    await store.roster.ensure();
    await waitFor(() => seen.length > 0, 'the watch to see the team made again');
    assert.deepEqual(seen.at(-1)?.members.map((m) => m.name), [LEAD]);
    await watch.close();
  } finally {
    await store.close();
  }
});

test("now() is the Redis server's clock; deleteMember and deleteTeam leave nothing of what they delete", async () => {
  const team = `d${teams++}`;
  const store = await openRedisStore(redis.server.url, team);
  const other = await openRedisStore(redis.server.url, `d${teams++}`);
  try {
    const [seconds] = z.tuple([z.string(), z.string()]).parse(await redis.client.sendCommand(['TIME']));
    assert.ok(Math.abs((await store.now()).getTime() / 1000 - Number(seconds)) < 5, 'TIME, as a Date');
    await store.roster.ensure();
    await other.roster.ensure();
    for (const agent of ['bob', 'carol']) await store.mailboxes.deliver(agent, textMessage(LEAD, agent, `hi ${agent}`));
    const seen: string[] = [];
    const bob = await store.mailboxes.subscribe('bob', (event) => event.type === 'delivered' && seen.push(...event.messages.map((m) => m.id)));
    await waitFor(() => seen.length === 1, 'bob to handle his message');
    await bob.close();
    await store.deleteMember('bob');
    const keysOf = async (pattern: string) => z.array(z.string()).parse(await redis.client.sendCommand(['KEYS', pattern])).sort();
    assert.deepEqual(await keysOf(`teams:{${team}}:mailbox:bob*`), [], "nothing of bob's mailbox is left");
    assert.equal((await store.mailboxes.peek('carol')).messages.length, 1, "carol's mailbox stays");
    await assert.rejects(store.deleteMember('../x'), /agent name/);
    await store.deleteTeam();
    assert.deepEqual(await keysOf(`teams:{${team}}:*`), [], 'nothing of the team is left');
    assert.equal(await store.roster.load(), undefined);
    assert.ok(await other.roster.load(), 'another team is untouched');
  } finally {
    await store.close();
    await other.close();
  }
});

test('close() ends every blocked read at once: a process with a consumer, an observer and a watch open ends once its store closes', async () => {
  const child = spawnNode(join(DIST, 'test', 'fixtures', 'redis-closer.js'), [redis.server.url, `c${teams++}`], { stdio: ['pipe', 'pipe', 'pipe'] });
  await waitFor(() => linesOf(child).includes('ready') || child.process.exitCode !== null, 'the closer to be ready');
  assert.equal(child.process.exitCode, null, child.stderr());
  child.process.stdin?.write('go\n');
  await waitFor(() => child.process.exitCode !== null || child.process.signalCode !== null, 'the closer to end by itself');
  assert.equal(child.process.exitCode, 0, child.stderr());
  assert.deepEqual(linesOf(child), ['ready', 'closed'], 'it closed, and nothing kept it alive after');
});
