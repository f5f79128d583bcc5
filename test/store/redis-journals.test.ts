import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { openRedisStore } from '../../src/store/redis/index.js';
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
