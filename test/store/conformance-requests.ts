import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as z from 'zod';
import type { NewRequest } from '../../src/store/team-store.js';
import { RequestRecord, type RequestState } from '../../src/protocol/request-records.js';
import { waitFor } from '../helpers/wait.js';
import { linesOf, succeeded, type Kit } from './conformance.js';

const HOUR = 3_600_000;

/** A plan request from alice to the lead, opened `agoMs` before now with a ten-minute deadline. */
function plan(id: string, agoMs = 0, extra: Partial<NewRequest> = {}): NewRequest {
  const created = Date.now() - agoMs;
  return {
    request_id: id,
    kind: 'plan',
    from: 'alice',
    to: 'lead',
    created_at: new Date(created).toISOString(),
    deadline_at: new Date(created + 600_000).toISOString(),
    summary: `plan ${id}`,
    ...extra,
  };
}

const Report = z.object({
  results: z.array(z.object({ id: z.string(), won: z.boolean(), error: z.string().optional() })),
  view: z.array(RequestRecord),
});

const ids = (records: readonly { request_id: string }[]) => records.map((r) => r.request_id);

export function requestCases(kit: Kit): void {
  test('requests: opened pending, read back, listed oldest first by every filter; a taken id or bad fields are refused', async () => {
    const { store } = await kit.team();
    const input = plan('plan-new', 1_000);
    const opened = await store.requests.open(input);
    assert.deepEqual(opened, { ...input, state: 'pending' });
    await store.requests.open(plan('plan-old', 3_000));
    await store.requests.open({ ...plan('shutdown-x', 2_000), kind: 'shutdown', from: 'lead', to: 'bob' });
    assert.deepEqual(await store.requests.get('plan-new'), opened);
    assert.equal(await store.requests.get('nope'), undefined);
    await assert.rejects(store.requests.open(plan('plan-new', 0, { from: 'bob' })), /request_id 'plan-new' is already taken/);
    await assert.rejects(store.requests.open(plan('plan-bad', 0, { from: 'Bad/Name' })), /agent name/);
    assert.ok((await store.requests.transition('plan-new', 'rejected', 'lead', 'smaller steps')).ok);
    assert.deepEqual(ids(await store.requests.list()), ['plan-old', 'shutdown-x', 'plan-new']);
    assert.deepEqual(ids(await store.requests.list({ state: 'pending' })), ['plan-old', 'shutdown-x']);
    assert.deepEqual(ids(await store.requests.list({ kind: 'plan' })), ['plan-old', 'plan-new']);
    assert.deepEqual(ids(await store.requests.list({ involving: 'bob' })), ['shutdown-x']);
    assert.deepEqual(ids(await store.requests.list({ involving: 'lead', state: 'rejected', kind: 'plan' })), ['plan-new']);
  });

  test('requests: a request is decided once; what comes after is refused, saying what happened; records are copies', async () => {
    const { descriptor, store } = await kit.team();
    await store.requests.open(plan('plan-a', HOUR));
    const early = await store.requests.open(plan('plan-b'));
    const expiredEarly = await store.requests.transition('plan-b', 'expired', 'deadline');
    assert.match(expiredEarly.ok ? 'expired early' : expiredEarly.error, /^request 'plan-b' is not due until .* and cannot expire yet$/);
    const won = await store.requests.transition('plan-a', 'approved', 'human', 'go ahead');
    assert.ok(won.ok);
    assert.deepEqual([won.record.state, won.record.decided_by, won.record.note], ['approved', 'human', 'go ahead']);
    assert.deepEqual(await store.requests.transition('plan-a', 'approved', 'lead'), { ok: false, error: "request 'plan-a' was already approved" });
    assert.deepEqual(await store.requests.transition('plan-a', 'expired', 'deadline'), { ok: false, error: "request 'plan-a' was already approved and can no longer be expired" });
    assert.deepEqual(await store.requests.transition('ghost', 'approved', 'lead'), { ok: false, error: "unknown request_id 'ghost'" });
    early.state = 'approved';
    const listed = (await store.requests.list({ state: 'pending' }))[0];
    assert.ok(listed);
    listed.summary = 'changed';
    assert.deepEqual(await store.requests.get('plan-b'), { ...early, state: 'pending' }, 'changing a record handed out changes nothing stored');
    const elsewhere = await kit.reopen(descriptor);
    assert.deepEqual(await elsewhere.requests.list(), await store.requests.list(), 'another opening sees the same requests');
  });

  test('requests: transitions raced from two processes: exactly one wins each, and everyone agrees', async () => {
    const { descriptor, store } = await kit.team();
    const count = 500;
    // Overdue, so that both outcomes are legal and either racer may win any of them.
    for (let i = 0; i < count; i++) await store.requests.open(plan(`plan-${String(i).padStart(3, '0')}`, HOUR - i));
    const outcomes: RequestState[] = ['approved', 'expired'];
    const racers = outcomes.map((outcome) => kit.child(descriptor, 'decide', outcome, `by-${outcome}`));
    await kit.go(racers);
    for (const racer of racers) await succeeded(racer, 'a decider');
    const reports = racers.map((racer) => Report.parse(JSON.parse(linesOf(racer).at(-1) ?? '')));
    const final = await store.requests.list();
    assert.equal(final.length, count);
    for (const record of final) {
      const id = record.request_id;
      const winners = outcomes.filter((_, i) => reports[i]?.results.find((r) => r.id === id)?.won);
      assert.equal(winners.length, 1, `${id} has exactly one winner, not ${winners.join(', ')}`);
      assert.equal(record.state, winners[0], id);
      assert.equal(record.decided_by, `by-${winners[0]}`, id);
      reports.forEach((report, i) => {
        const result = report.results.find((r) => r.id === id);
        assert.ok(result, `${outcomes[i]} tried ${id}`);
        if (!result.won) assert.match(result.error ?? '', new RegExp(`^request '${id}' was already ${record.state}`));
        assert.deepEqual(report.view.find((r) => r.request_id === id), record, `${outcomes[i]} sees ${id} as everyone does`);
      });
    }
  });

  test('requests: a watch gives every request at once, then the changes another process makes', async () => {
    const { descriptor, store } = await kit.team();
    await store.requests.open(plan('plan-a'));
    await store.requests.open(plan('plan-b'));
    const looks: string[][] = [];
    const problems: Error[] = [];
    kit.keep(await store.requests.watch((records) => looks.push(records.map((r) => `${r.request_id}:${r.state}`)), (error) => problems.push(error)));
    assert.deepEqual(looks, [['plan-a:pending', 'plan-b:pending']], 'the requests as they were, before the watch resolved');
    const decider = kit.child(descriptor, 'decide', 'rejected', 'human');
    await kit.go([decider]);
    await succeeded(decider, 'the decider');
    await waitFor(() => looks.at(-1)?.join() === 'plan-a:rejected,plan-b:rejected', 'the watch to see both decided');
    await store.requests.open(plan('plan-c'));
    await waitFor(() => looks.at(-1)?.includes('plan-c:pending'), "the watch to see this process's own request");
    assert.deepEqual(problems, []);
  });
}
