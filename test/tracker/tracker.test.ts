import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RequestTracker, type OpenRequest } from '../../src/store/file/request-journal.js';
import type { RequestState } from '../../src/tracker/records.js';
import { tempHome } from '../helpers/temp.js';

const temp = tempHome('teams-tracker-');
after(temp.cleanup);
let journals = 0;

/** A fresh journal path per test, in a directory that exists. */
function journal(): string {
  const dir = join(temp.home, `t${journals++}`);
  mkdirSync(dir);
  return join(dir, 'requests.jsonl');
}

const HOUR_AGO = new Date(Date.now() - 3_600_000).toISOString();

function plan(id: string, extra: Partial<OpenRequest> = {}): OpenRequest {
  return { request_id: id, kind: 'plan', from: 'alice', to: 'lead', summary: `plan ${id}`, ...extra };
}

function overdue(id: string): OpenRequest {
  return plan(id, { created_at: HOUR_AGO, deadline_at: new Date(Date.parse(HOUR_AGO) + 60_000).toISOString() });
}

test('open records a pending request with the default deadline of its kind, or the team override', () => {
  const path = journal();
  const tracker = new RequestTracker(path, { deadlines: { permission: 1_000 } });
  const created_at = '2030-01-01T10:00:00.000Z';
  const planned = tracker.open(plan('plan-a', { created_at }));
  assert.deepEqual(planned, { ...plan('plan-a'), created_at, deadline_at: '2030-01-01T10:10:00.000Z', state: 'pending' });
  const asked = tracker.open({ request_id: 'perm-a', kind: 'permission', from: 'bob', to: 'lead', summary: 'rm -rf build', created_at });
  assert.equal(asked.deadline_at, '2030-01-01T10:00:01.000Z');
  assert.deepEqual(tracker.get('plan-a'), planned);
  assert.equal(tracker.get('nope'), undefined);
});

test('open refuses a duplicate id, bad fields, and a deadline before creation', () => {
  const tracker = new RequestTracker(journal());
  tracker.open(plan('plan-a'));
  assert.throws(() => tracker.open(plan('plan-a', { from: 'bob' })), { message: "request_id 'plan-a' is already taken (a plan request from alice to lead)" });
  assert.throws(() => tracker.open(plan('plan-b', { from: 'Bad/Name' })), /cannot open request 'plan-b': from: agent name 'Bad\/Name' may not contain/);
  assert.throws(() => tracker.open(plan('', {})), /request_id: request_id is empty/);
  assert.throws(
    () => tracker.open(plan('plan-c', { created_at: '2030-01-01T10:00:00.000Z', deadline_at: '2030-01-01T09:00:00.000Z' })),
    /deadline_at 2030-01-01T09:00:00.000Z is before created_at/,
  );
  assert.equal(tracker.list().length, 1);
});

test('transition decides once; later decisions are refused with what happened', () => {
  const tracker = new RequestTracker(journal());
  tracker.open(plan('plan-a'));
  const won = tracker.transition('plan-a', 'approved', 'human', 'go ahead');
  assert.ok(won.ok);
  assert.equal(won.record.state, 'approved');
  assert.equal(won.record.decided_by, 'human');
  assert.equal(won.record.note, 'go ahead');
  assert.deepEqual(tracker.transition('plan-a', 'approved', 'lead'), { ok: false, error: "request 'plan-a' was already approved" });
  assert.deepEqual(tracker.transition('plan-a', 'expired', 'deadline'), {
    ok: false,
    error: "request 'plan-a' was already approved and can no longer be expired",
  });
  assert.deepEqual(tracker.transition('ghost', 'approved', 'lead'), { ok: false, error: "unknown request_id 'ghost'" });
  // Text typed by a human that skipped parsing is still refused, not written.
  assert.deepEqual(tracker.transition('plan-a', 'approve' as RequestState, 'human'), {
    ok: false,
    error: "'approve' is not a request state (pending, approved, rejected, expired, cancelled)",
  });
});

test('expiry before the deadline is refused; overdue() lists what may expire', () => {
  const tracker = new RequestTracker(journal());
  tracker.open(plan('plan-fresh'));
  tracker.open(overdue('plan-late'));
  const early = tracker.transition('plan-fresh', 'expired', 'deadline');
  assert.match(early.ok ? 'expired early' : early.error, /^request 'plan-fresh' is not due until .* and cannot expire yet$/);
  assert.deepEqual(tracker.overdue().map((r) => r.request_id), ['plan-late']);
  assert.deepEqual(tracker.overdue(Date.now() + 3_600_000).map((r) => r.request_id), ['plan-late', 'plan-fresh']);
  assert.ok(tracker.transition('plan-late', 'expired', 'deadline', 'no decision').ok);
  assert.deepEqual(tracker.overdue(), []);
});

test('list filters by state, kind and agent, oldest first; pending() is the pending ones', () => {
  const tracker = new RequestTracker(journal());
  tracker.open(plan('plan-new', { created_at: '2030-01-01T10:00:02.000Z' }));
  tracker.open(plan('plan-old', { created_at: '2030-01-01T10:00:00.000Z' }));
  tracker.open({ request_id: 'shutdown-x', kind: 'shutdown', from: 'lead', to: 'bob', summary: 'done', created_at: '2030-01-01T10:00:01.000Z' });
  tracker.transition('plan-new', 'rejected', 'lead', 'smaller steps');
  const ids = (records: { request_id: string }[]) => records.map((r) => r.request_id);
  assert.deepEqual(ids(tracker.list()), ['plan-old', 'shutdown-x', 'plan-new']);
  assert.deepEqual(ids(tracker.list({ state: 'pending' })), ['plan-old', 'shutdown-x']);
  assert.deepEqual(ids(tracker.pending()), ['plan-old', 'shutdown-x']);
  assert.deepEqual(ids(tracker.list({ kind: 'plan' })), ['plan-old', 'plan-new']);
  assert.deepEqual(ids(tracker.list({ involving: 'bob' })), ['shutdown-x']);
  assert.deepEqual(ids(tracker.list({ involving: 'lead', state: 'rejected', kind: 'plan' })), ['plan-new']);
});

test('records handed out are copies: changing one does not change the tracker', () => {
  const tracker = new RequestTracker(journal());
  const record = tracker.open(plan('plan-a'));
  record.state = 'approved';
  const listed = tracker.list()[0];
  assert.ok(listed);
  listed.summary = 'changed';
  assert.deepEqual(tracker.get('plan-a'), { ...record, state: 'pending', summary: 'plan plan-a' });
});

test('the journal survives a restart: a new tracker over the same file sees the same requests', () => {
  const path = journal();
  const first = new RequestTracker(path);
  first.open(plan('plan-a'));
  first.open(plan('plan-b'));
  first.transition('plan-b', 'cancelled', 'alice', 'not needed');
  const second = new RequestTracker(path);
  assert.deepEqual(second.pending().map((r) => r.request_id), ['plan-a']);
  assert.deepEqual(second.get('plan-b'), first.get('plan-b'));
  assert.deepEqual(second.problems(), []);
});

test('two trackers over one file see each other, and a stale one loses cleanly', () => {
  const path = journal();
  const lead = new RequestTracker(path);
  const cli = new RequestTracker(path);
  lead.open(plan('plan-a'));
  assert.equal(cli.get('plan-a')?.state, 'pending');
  assert.ok(cli.transition('plan-a', 'approved', 'human').ok);
  assert.deepEqual(lead.transition('plan-a', 'rejected', 'lead'), {
    ok: false,
    error: "request 'plan-a' was already approved and can no longer be rejected",
  });
  assert.equal(lead.get('plan-a')?.decided_by, 'human');
});

test('the fold keeps the first legal transition and ignores later ones, whatever their writer believed', () => {
  const path = journal();
  const tracker = new RequestTracker(path);
  tracker.open(overdue('plan-a'));
  // Two decisions that both passed their writer's check before either was appended.
  const at = new Date().toISOString();
  appendFileSync(path, `${JSON.stringify({ event: 'transition', event_id: 'e1', request_id: 'plan-a', to: 'expired', by: 'deadline', at })}\n`);
  appendFileSync(path, `${JSON.stringify({ event: 'transition', event_id: 'e2', request_id: 'plan-a', to: 'approved', by: 'human', at })}\n`);
  assert.equal(new RequestTracker(path).get('plan-a')?.state, 'expired');
  assert.equal(tracker.get('plan-a')?.decided_by, 'deadline');
  assert.deepEqual(tracker.problems(), []);
});

test('a corrupt line in the middle is reported once and skipped; the rest still folds', () => {
  const path = journal();
  const tracker = new RequestTracker(path);
  tracker.open(plan('plan-a'));
  const corruptAt = readFileSync(path).length;
  appendFileSync(path, '{"event":"opened","record":{garbage\n');
  appendFileSync(path, `${JSON.stringify({ event: 'transition', event_id: 'e9', request_id: 'plan-zzz', to: 'approved', by: 'x', at: new Date().toISOString() })}\n`);
  tracker.open(plan('plan-b'));
  assert.ok(tracker.transition('plan-a', 'approved', 'lead').ok);
  for (const reader of [tracker, new RequestTracker(path)]) {
    assert.deepEqual(reader.pending().map((r) => r.request_id), ['plan-b']);
    const problems = reader.problems();
    assert.equal(problems.length, 2, JSON.stringify(problems));
    assert.deepEqual(problems[0], { offset: corruptAt, reason: 'not valid JSON (torn or corrupt line)' });
    assert.equal(problems[1]?.reason, "transition of unknown request_id 'plan-zzz' to approved ignored");
    assert.equal(reader.problems().length, 2, 'reading again does not report again');
  }
});

test('a torn tail is skipped until it is complete', () => {
  const path = journal();
  const tracker = new RequestTracker(path);
  tracker.open(plan('plan-a'));
  const line = JSON.stringify({ event: 'opened', event_id: 'e1', record: { ...plan('plan-b'), created_at: HOUR_AGO, deadline_at: HOUR_AGO } });
  appendFileSync(path, line.slice(0, 40));
  assert.deepEqual(tracker.list().map((r) => r.request_id), ['plan-a']);
  assert.match(tracker.problems()[0]?.reason ?? '', /incomplete last line/);
  appendFileSync(path, `${line.slice(40)}\n`);
  assert.deepEqual(tracker.list().map((r) => r.request_id), ['plan-b', 'plan-a']);
  assert.deepEqual(tracker.problems(), []);
});

test('a tail torn by a killed writer costs only its own line: the next append still lands', () => {
  const path = journal();
  const tracker = new RequestTracker(path);
  tracker.open(plan('plan-a'));
  appendFileSync(path, '{"event":"transition","event_id":"dead","request_id":"plan-a","to":"appr');
  tracker.open(plan('plan-b'));
  assert.ok(tracker.transition('plan-b', 'approved', 'lead').ok);
  const fresh = new RequestTracker(path);
  assert.equal(fresh.get('plan-a')?.state, 'pending');
  assert.equal(fresh.get('plan-b')?.state, 'approved');
  assert.deepEqual(fresh.problems().map((p) => p.reason), ['not valid JSON (torn or corrupt line)']);
});

test('a journal replaced by a shorter one is folded again from the start', () => {
  const path = journal();
  const tracker = new RequestTracker(path);
  tracker.open(plan('plan-a', { summary: 'a long summary that makes this first journal longer than the next one' }));
  writeFileSync(path, '');
  new RequestTracker(path).open(plan('plan-b'));
  assert.deepEqual(tracker.list().map((r) => r.request_id), ['plan-b']);
});

test('a missing journal is an empty tracker', () => {
  const tracker = new RequestTracker(join(temp.home, 'absent.jsonl'));
  assert.deepEqual(tracker.list(), []);
  assert.deepEqual(tracker.problems(), []);
});
