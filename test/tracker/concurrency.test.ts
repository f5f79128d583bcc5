import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { RequestTracker } from '../../src/tracker/tracker.js';
import { RequestRecord } from '../../src/tracker/records.js';
import { DIST, killAll, spawnNode } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

const temp = tempHome('teams-tracker-race-');
after(async () => {
  await killAll();
  temp.cleanup();
});

const Report = z.object({
  decider: z.string(),
  outcome: z.string(),
  results: z.array(z.object({ id: z.string(), won: z.boolean(), error: z.string().optional() })),
  view: z.array(RequestRecord),
});

const OUTCOMES = ['approved', 'rejected', 'cancelled', 'expired'] as const;
const REQUESTS = 40;

test('deciders in separate processes racing on the same requests: exactly one winner each, and all agree', async (t) => {
  const dir = join(temp.home, 'team');
  mkdirSync(dir);
  const journal = join(dir, 'requests.jsonl');
  const goFile = join(dir, 'go');
  const tracker = new RequestTracker(journal);
  // Already overdue, so that expiry is as legal as any decision and every decider can win.
  const created = Date.now() - 3_600_000;
  for (let i = 0; i < REQUESTS; i++) {
    tracker.open({
      request_id: `plan-${String(i).padStart(3, '0')}`,
      kind: 'plan',
      from: 'alice',
      to: 'lead',
      summary: `plan ${i}`,
      created_at: new Date(created + i).toISOString(),
      deadline_at: new Date(created + 60_000).toISOString(),
    });
  }

  const children = OUTCOMES.map((outcome) => spawnNode(join(DIST, 'test/fixtures/tracker-decider.js'), [journal, outcome, `by-${outcome}`, goFile]));
  await waitFor(() => children.every((c) => c.stdout().startsWith('ready\n')), 'every decider to be ready');
  writeFileSync(goFile, '');
  await waitFor(() => children.every((c) => c.process.exitCode !== null), 'every decider to finish', 30_000);
  for (const child of children) assert.equal(child.process.exitCode, 0, child.stderr());
  const reports = children.map((c) => Report.parse(JSON.parse(c.stdout().split('\n')[1] ?? '')));

  const final = new Map(new RequestTracker(journal).list().map((r) => [r.request_id, r]));
  assert.equal(final.size, REQUESTS);
  for (const [id, record] of final) {
    const winners = reports.filter((report) => report.results.find((r) => r.id === id)?.won);
    assert.equal(winners.length, 1, `${id} has exactly one winner, not ${winners.map((w) => w.decider).join(', ')}`);
    const winner = winners[0];
    assert.ok(winner);
    assert.equal(record.state, winner.outcome, id);
    assert.equal(record.decided_by, winner.decider, id);
    for (const report of reports) {
      const result = report.results.find((r) => r.id === id);
      assert.ok(result, `${report.decider} tried ${id}`);
      if (!result.won) {
        const expected = record.state === report.outcome ? `request '${id}' was already ${record.state}` : `request '${id}' was already ${record.state} and can no longer be ${report.outcome}`;
        assert.equal(result.error, expected);
      }
      assert.deepEqual(report.view.find((r) => r.request_id === id), record, `${report.decider} sees ${id} as everyone does`);
    }
  }
  const wins = reports.map((r) => `${r.decider}: ${r.results.filter((x) => x.won).length}`).join(', ');
  const appended = readFileSync(journal, 'utf8').split('\n').filter((l) => l.includes('"transition"')).length;
  // Appends beyond one per request are decisions that passed their check, were written, and lost the race after.
  t.diagnostic(`wins ${wins}; ${appended - REQUESTS} decisions lost after being written`);
});
