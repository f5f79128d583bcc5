import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Envelope } from '../../src/protocol/messages.js';
import { connectRedis, redisTarget, type RedisClient, type RedisStatus } from '../../src/store/redis/connection.js';
import { teamKeys } from '../../src/store/redis/keys.js';
import { RedisTransport, type RedisTransportOptions } from '../../src/store/redis/mailbox-transport.js';
import { OpenThings } from '../../src/store/redis/redis-team.js';
import { openRedisStore } from '../../src/store/redis/index.js';
import type { MailboxEvent } from '../../src/store/transport.js';
import { DIST, killAll, spawnNode, type Child } from '../helpers/children.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { waitFor } from '../helpers/wait.js';
import { textMessage } from '../fixtures/mailbox-envelopes.js';
import { linesOf } from './conformance.js';

let server: RedisServer;
let client: RedisClient;
const clients: RedisClient[] = [];
const open = new OpenThings();
before(async () => {
  server = await startRedisServer();
  client = await connectRedis(redisTarget(server.url));
});
after(async () => {
  await open.closeAll();
  await killAll();
  for (const each of [client, ...clients]) each.destroy();
  await server.close();
});
let teams = 0;
const freshTeam = () => `m${teams++}`;

/** A transport of its own on `team`, with options a store does not let a caller set. */
async function transportOn(team: string, options: RedisTransportOptions = {}): Promise<RedisTransport> {
  const target = redisTarget(server.url);
  const own = await connectRedis(target);
  clients.push(own);
  return new RedisTransport({ team, keys: teamKeys(team), client: own, target, keep: (thing) => open.keep(thing) }, options);
}

function recorder() {
  const delivered: Envelope[] = [];
  const reasons: string[] = [];
  return {
    delivered,
    reasons,
    ids: () => delivered.map((m) => m.id),
    listener: (event: MailboxEvent) => {
      if (event.type === 'delivered') delivered.push(...event.messages);
      else reasons.push(event.problem.reason);
    },
  };
}

async function historyOf(transport: RedisTransport, agent: string): Promise<string[]> {
  const seen: Envelope[] = [];
  await (await transport.observe(agent, (messages) => seen.push(...messages), { from: 'history' })).close();
  return seen.map((m) => m.id);
}

const STORE_CHILD = join(DIST, 'test', 'fixtures', 'store-child.js');
const OPENER = fileURLToPath(new URL('./redis-store-opener.js', import.meta.url));

/** A consumer process of `agent`'s mailbox that SIGKILLs itself at `failpoint`. */
function dyingConsumer(team: string, agent: string, failpoint: string): Child {
  const descriptor = JSON.stringify({ url: server.url, team });
  return spawnNode(STORE_CHILD, [OPENER, descriptor, 'consume', agent], { env: { ...process.env, TEAMS_FAILPOINT: failpoint } });
}

test('a duplicate deliver is one message; a duplicate that reaches the stream anyway is handed over once', async () => {
  const team = freshTeam();
  const transport = await transportOn(team);
  const message = textMessage('alice', 'bob', 'once');
  await transport.deliver('bob', message);
  await transport.deliver('bob', message);
  assert.deepEqual((await transport.peek('bob')).messages.map((m) => m.id), [message.id], 'the second deliver was dropped');
  // Past the deliver's dedupe (a writer that is not this store): the consumer's own check drops it.
  await client.sendCommand(['XADD', teamKeys(team).mailbox('bob'), '*', 'm', JSON.stringify(message)]);
  const later = textMessage('alice', 'bob', 'later');
  await transport.deliver('bob', later);
  const seen = recorder();
  open.keep(await transport.subscribe('bob', seen.listener));
  await waitFor(() => seen.delivered.length >= 2, 'both messages');
  await waitFor(async () => (await transport.peek('bob')).messages.length === 0, 'the copy to be taken too');
  assert.deepEqual(seen.ids(), [message.id, later.id], 'each handed over once');
  assert.deepEqual(await historyOf(transport, 'bob'), [message.id, later.id], 'and in the history once');
});

test('a consumer SIGKILLed between read and take: the next consumer takes what it read, exactly once', async () => {
  const team = freshTeam();
  const transport = await transportOn(team);
  const sent = [textMessage('alice', 'bob', 'a'), textMessage('alice', 'bob', 'b')];
  for (const message of sent) await transport.deliver('bob', message);
  const dying = dyingConsumer(team, 'bob', 'redis-mailbox-after-read');
  const { signal } = await dying.exited;
  assert.equal(signal, 'SIGKILL', `it died at the failpoint: ${dying.stderr()}`);
  assert.deepEqual(linesOf(dying).filter((line) => line.startsWith('delivered')), [], 'it handed nothing over');
  const pending = await client.sendCommand(['XPENDING', teamKeys(team).mailbox('bob'), 'consumer']);
  assert.ok(Array.isArray(pending) && pending[0] === 2, `read and left pending: ${JSON.stringify(pending)}`);
  // Its lease runs out by itself: the next consumer waits for that.
  const seen = recorder();
  open.keep(await transport.subscribe('bob', seen.listener));
  await waitFor(() => seen.delivered.length >= 2, 'the two messages it read');
  assert.deepEqual(seen.ids(), sent.map((m) => m.id));
  assert.deepEqual(await historyOf(transport, 'bob'), sent.map((m) => m.id), 'handled once each');
});

test('a consumer SIGKILLed between take and hand-over: the messages stay handled, and are not handed over again', async () => {
  const team = freshTeam();
  const transport = await transportOn(team);
  const first = textMessage('alice', 'bob', 'taken');
  await transport.deliver('bob', first);
  const dying = dyingConsumer(team, 'bob', 'redis-mailbox-after-take');
  assert.equal((await dying.exited).signal, 'SIGKILL', dying.stderr());
  assert.deepEqual(await historyOf(transport, 'bob'), [first.id], 'recorded as handled before the kill');
  const next = textMessage('alice', 'bob', 'next');
  await transport.deliver('bob', next);
  const seen = recorder();
  open.keep(await transport.subscribe('bob', seen.listener));
  await waitFor(() => seen.delivered.length >= 1, 'the next message');
  assert.deepEqual(seen.ids(), [next.id], 'the taken one is not handed over a second time');
});

test('two consumers of one mailbox: the second is refused while the first lives, and takes over once it is killed', async () => {
  const team = freshTeam();
  const transport = await transportOn(team);
  const first = spawnNode(STORE_CHILD, [OPENER, JSON.stringify({ url: server.url, team }), 'consume', 'bob']);
  await waitFor(() => linesOf(first).includes('ready') || first.process.exitCode !== null, 'the first consumer');
  await assert.rejects(transport.subscribe('bob', () => undefined), /bob's mailbox already has a consumer: another process holds its lease/);
  first.process.kill('SIGKILL');
  await first.exited;
  const message = textMessage('alice', 'bob', 'for the second');
  await transport.deliver('bob', message);
  const seen = recorder();
  open.keep(await transport.subscribe('bob', seen.listener));
  await waitFor(() => seen.delivered.length === 1, 'the second consumer to take over');
  assert.deepEqual(seen.ids(), [message.id]);
});

test('a consumer whose lease was taken from it hands nothing over and says so; the next holder takes the message', async () => {
  const team = freshTeam();
  const errors: unknown[] = [];
  const transport = await transportOn(team, { leaseMs: 60_000, onError: (error) => errors.push(error) });
  const seen = recorder();
  const subscription = open.keep(await transport.subscribe('bob', seen.listener));
  await client.sendCommand(['SET', teamKeys(team).lease('bob'), 'a thief', 'PX', '60000']);
  const message = textMessage('alice', 'bob', 'fenced');
  await transport.deliver('bob', message);
  await waitFor(() => errors.length > 0, 'the consumer to find its lease gone');
  assert.match(String(errors[0]), /lease/);
  assert.deepEqual(seen.delivered, [], 'nothing handed over without the lease');
  await subscription.close();
  await client.sendCommand(['DEL', teamKeys(team).lease('bob')]);
  const next = recorder();
  open.keep(await (await transportOn(team)).subscribe('bob', next.listener));
  await waitFor(() => next.delivered.length === 1, 'the next holder to take it');
  assert.deepEqual(next.ids(), [message.id]);
});

test('the server stopped and started mid-flow: every message handed over once, in order, none lost', async () => {
  const team = freshTeam();
  const statuses: RedisStatus[] = [];
  const store = await openRedisStore(server.url, team, (status) => statuses.push(status));
  try {
    const seen = recorder();
    open.keep(await store.mailboxes.subscribe('bob', seen.listener));
    const count = 600;
    const sent: string[] = [];
    const writing = (async () => {
      for (let i = 0; i < count; i++) {
        const message = textMessage('alice', 'bob', `m${i}`);
        await store.mailboxes.deliver('bob', message);
        sent.push(message.id);
      }
    })();
    await waitFor(() => seen.delivered.length >= count / 4, 'a quarter to be handled');
    await server.stop();
    await waitFor(() => statuses.some((s) => s.state === 'down'), 'the store to say Redis is down');
    await server.start();
    await writing;
    await waitFor(() => seen.delivered.length >= count, `all ${count} (have ${seen.delivered.length})`, 30_000);
    assert.deepEqual(seen.ids(), sent, 'each once, in the order sent');
    assert.deepEqual(await historyOf(await transportOn(team), 'bob'), sent, 'the history holds each once');
    assert.equal(statuses.at(-1)?.state, 'up');
  } finally {
    await store.close();
  }
});
