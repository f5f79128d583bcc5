import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { connectRedis, redisTarget } from '../../src/store/redis/connection.js';
import { openRedisStore } from '../../src/store/redis/index.js';
import { teamKeys } from '../../src/store/redis/keys.js';
import { RedisRequests } from '../../src/store/redis/requests.js';
import type { SessionRecord } from '../../src/store/sessions.js';
import { DIST, killAll, spawnNode, type Child } from '../helpers/children.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { waitFor } from '../helpers/wait.js';

// What Redis adds to the journals' conformance: a server that goes away in the middle of a race.

const CHILD = join(DIST, 'test', 'fixtures', 'store-child.js');
const OPENER = fileURLToPath(new URL('./redis-store-opener.js', import.meta.url));
const ClaimReport = z.object({ claimed: z.array(z.string()), ms: z.number() });

let server: RedisServer;
before(async () => {
  server = await startRedisServer();
});
after(async () => {
  await killAll();
  await server.close();
});

const lines = (child: Child) => child.stdout().split('\n').filter((line) => line !== '');

test('tasks: the server killed and restarted while processes race to claim: every task claimed and completed once, none lost', async () => {
  const team = 'restart';
  const store = await openRedisStore(server.url, team);
  try {
    const count = 60;
    for (let i = 1; i <= count; i++) await store.tasks.create({ subject: `task ${i}` }, 'lead');
    const descriptor = JSON.stringify({ url: server.url, team });
    const claimers = Array.from({ length: 4 }, (_, i) => spawnNode(CHILD, [OPENER, descriptor, 'claim', `claimer-${i}`], { stdio: ['pipe', 'pipe', 'pipe'] }));
    await waitFor(() => claimers.every((c) => lines(c).includes('ready')), 'every claimer to be ready');
    for (const claimer of claimers) claimer.process.stdin?.write('go\n');
    // Killed mid-run: some tasks done, most still to claim.
    await waitFor(async () => (await store.tasks.list({ status: 'completed' })).length >= 5, 'the claimers to be under way');
    await server.stop();
    await server.start();
    for (const claimer of claimers) {
      await waitFor(() => claimer.process.exitCode !== null || claimer.process.signalCode !== null, 'a claimer to finish', 60_000);
      assert.equal(claimer.process.exitCode, 0, claimer.stderr());
    }
    const reports = claimers.map((c) => ClaimReport.parse(JSON.parse(lines(c).at(-1) ?? '')));
    const claimed = reports.flatMap((r) => r.claimed);
    assert.equal(claimed.length, new Set(claimed).size, 'no task claimed twice');
    assert.deepEqual([...claimed].sort((a, b) => Number(a) - Number(b)), Array.from({ length: count }, (_, i) => String(i + 1)), 'every task claimed');
    const board = await store.tasks.list();
    reports.forEach((report, i) => {
      for (const id of report.claimed) {
        const task = board.find((t) => t.id === id);
        assert.deepEqual([task?.status, task?.owner, task?.result], ['completed', `claimer-${i}`, `done by claimer-${i}`], `task ${id}`);
      }
    });
    assert.deepEqual(await store.tasks.problems(), []);
  } finally {
    await store.close();
  }
});

test('entries another writer left in the journals are reported by their entry id and skipped; the rest reads on', async () => {
  const team = 'foreign';
  const keys = teamKeys(team);
  const store = await openRedisStore(server.url, team);
  const client = await connectRedis(redisTarget(server.url));
  try {
    const now = new Date().toISOString();
    await store.requests.open({ request_id: 'plan-a', kind: 'plan', from: 'alice', to: 'lead', created_at: now, deadline_at: now, summary: 'a plan' });
    await store.audit.append({ event: 'member', name: 'alice', change: 'added' });
    await store.sessions.create({ id: 'session-0123456789', started_at: now, first_prompt: '' });
    const hi: SessionRecord = { type: 'user', content: [{ type: 'text', text: 'hi' }] };
    await store.sessions.append('session-0123456789', 'lead', hi);
    const garbage = async (key: string, field: string, value: string) => z.string().parse(await client.sendCommand(['XADD', key, '*', field, value]));
    const badRequest = await garbage(keys.requests, 'r', '{"event":"opened"');
    const foreignRequest = await garbage(keys.requests, 'x', 'y');
    const badAudit = await garbage(keys.audit, 'r', '{"event":"member","name":"Not A Name"}');
    const badJournal = await garbage(keys.journal('session-0123456789', 'lead'), 'r', 'not json');
    await garbage(keys.agentLog('alice'), 'x', 'y');

    const requests = new RedisRequests({ team, keys, client, target: redisTarget(server.url), keep: (thing) => thing });
    assert.deepEqual((await requests.list()).map((r) => r.request_id), ['plan-a']);
    assert.deepEqual((await requests.problems()).map((p) => p.ref), [badRequest, foreignRequest].map((id) => `${keys.requests} entry ${id}`));
    assert.ok((await store.requests.transition('plan-a', 'approved', 'lead')).ok, 'the journal goes on past them');

    const audit = await store.audit.read();
    assert.equal(audit.entries.length, 1);
    assert.deepEqual(audit.problems.map((p) => p.ref), [`${keys.audit} entry ${badAudit}`]);
    assert.match(audit.problems[0]?.reason ?? '', /agent name/);

    const journal = await store.sessions.read('session-0123456789', 'lead');
    assert.equal(journal.entries.length, 1);
    assert.deepEqual(journal.problems, [{ ref: `${keys.journal('session-0123456789', 'lead')} entry ${badJournal}`, reason: 'not valid JSON (torn or corrupt record)' }]);
    assert.equal((await store.sessions.list()).problems.length, 1, 'listed sessions report it too');

    const log = await store.agentLogs.read('alice');
    assert.equal(log.lines.length, 1);
    assert.match(log.lines[0]?.type === 'raw' ? log.lines[0].text : '', /is not a log line/, 'a log is only shown: the entry is said, not dropped');
  } finally {
    client.destroy();
    await store.close();
  }
});
