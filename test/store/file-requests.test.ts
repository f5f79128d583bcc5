import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RequestJournal } from '../../src/store/file/request-journal.js';
import type { NewRequest } from '../../src/store/team-store.js';
import { tempHome } from '../helpers/temp.js';

// What the file store adds to the conformance suite: its journal's file, torn and corrupt.

const temp = tempHome('teams-file-requests-');
after(temp.cleanup);
let journals = 0;

/** A fresh journal path per test, in a directory that exists. */
function journal(): string {
  const dir = join(temp.home, `t${journals++}`);
  mkdirSync(dir);
  return join(dir, 'requests.jsonl');
}

const HOUR_AGO = new Date(Date.now() - 3_600_000).toISOString();

function plan(id: string, extra: Partial<NewRequest> = {}): NewRequest {
  const now = new Date().toISOString();
  return { request_id: id, kind: 'plan', from: 'alice', to: 'lead', created_at: now, deadline_at: new Date(Date.parse(now) + 600_000).toISOString(), summary: `plan ${id}`, ...extra };
}

function overdue(id: string): NewRequest {
  return plan(id, { created_at: HOUR_AGO, deadline_at: new Date(Date.parse(HOUR_AGO) + 60_000).toISOString() });
}

test('a deadline before the request was opened is refused, and nothing is written', () => {
  const path = journal();
  const requests = new RequestJournal(path);
  assert.throws(
    () => requests.open(plan('plan-c', { created_at: '2030-01-01T10:00:00.000Z', deadline_at: '2030-01-01T09:00:00.000Z' })),
    /deadline_at 2030-01-01T09:00:00.000Z is before created_at/,
  );
  assert.deepEqual(requests.list(), []);
});

test('the fold keeps the first legal transition and ignores later ones, whatever their writer believed', () => {
  const path = journal();
  const requests = new RequestJournal(path);
  requests.open(overdue('plan-a'));
  // Two decisions that both passed their writer's check before either was appended.
  const at = new Date().toISOString();
  appendFileSync(path, `${JSON.stringify({ event: 'transition', event_id: 'e1', request_id: 'plan-a', to: 'expired', by: 'deadline', at })}\n`);
  appendFileSync(path, `${JSON.stringify({ event: 'transition', event_id: 'e2', request_id: 'plan-a', to: 'approved', by: 'human', at })}\n`);
  assert.equal(new RequestJournal(path).get('plan-a')?.state, 'expired');
  assert.equal(requests.get('plan-a')?.decided_by, 'deadline');
  assert.deepEqual(requests.problems(), []);
});

test('a corrupt line in the middle is reported once and skipped; the rest still folds', () => {
  const path = journal();
  const requests = new RequestJournal(path);
  requests.open(plan('plan-a'));
  const corruptAt = readFileSync(path).length;
  appendFileSync(path, '{"event":"opened","record":{garbage\n');
  appendFileSync(path, `${JSON.stringify({ event: 'transition', event_id: 'e9', request_id: 'plan-zzz', to: 'approved', by: 'x', at: new Date().toISOString() })}\n`);
  requests.open(plan('plan-b'));
  assert.ok(requests.transition('plan-a', 'approved', 'lead').ok);
  for (const reader of [requests, new RequestJournal(path)]) {
    assert.deepEqual(reader.list({ state: 'pending' }).map((r) => r.request_id), ['plan-b']);
    const problems = reader.problems();
    assert.equal(problems.length, 2, JSON.stringify(problems));
    assert.deepEqual(problems[0], { offset: corruptAt, reason: 'not valid JSON (torn or corrupt line)' });
    assert.equal(problems[1]?.reason, "transition of unknown request_id 'plan-zzz' to approved ignored");
    assert.equal(reader.problems().length, 2, 'reading again does not report again');
  }
});

test('a torn tail is skipped until it is complete', () => {
  const path = journal();
  const requests = new RequestJournal(path);
  requests.open(plan('plan-a'));
  const line = JSON.stringify({ event: 'opened', event_id: 'e1', record: { ...plan('plan-b'), created_at: HOUR_AGO, deadline_at: HOUR_AGO } });
  appendFileSync(path, line.slice(0, 40));
  assert.deepEqual(requests.list().map((r) => r.request_id), ['plan-a']);
  assert.match(requests.problems()[0]?.reason ?? '', /incomplete last line/);
  appendFileSync(path, `${line.slice(40)}\n`);
  assert.deepEqual(requests.list().map((r) => r.request_id), ['plan-b', 'plan-a']);
  assert.deepEqual(requests.problems(), []);
});

test('a tail torn by a killed writer costs only its own line: the next append still lands', () => {
  const path = journal();
  const requests = new RequestJournal(path);
  requests.open(plan('plan-a'));
  appendFileSync(path, '{"event":"transition","event_id":"dead","request_id":"plan-a","to":"appr');
  requests.open(plan('plan-b'));
  assert.ok(requests.transition('plan-b', 'approved', 'lead').ok);
  const fresh = new RequestJournal(path);
  assert.equal(fresh.get('plan-a')?.state, 'pending');
  assert.equal(fresh.get('plan-b')?.state, 'approved');
  assert.deepEqual(fresh.problems().map((p) => p.reason), ['not valid JSON (torn or corrupt line)']);
});

test('a journal replaced by a shorter one is folded again from the start', () => {
  const path = journal();
  const requests = new RequestJournal(path);
  requests.open(plan('plan-a', { summary: 'a long summary that makes this first journal longer than the next one' }));
  writeFileSync(path, '');
  new RequestJournal(path).open(plan('plan-b'));
  assert.deepEqual(requests.list().map((r) => r.request_id), ['plan-b']);
});

test('a missing journal is no requests', () => {
  const requests = new RequestJournal(join(temp.home, 'absent.jsonl'));
  assert.deepEqual(requests.list(), []);
  assert.deepEqual(requests.problems(), []);
});
