import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { filterByAgent, involves, type AuditEntry } from '../../src/store/audit.js';
import { openFileStore } from '../../src/store/file/file-store.js';
import { fileLayout } from '../../src/store/file/layout.js';
import type { AuditBatch, TeamStore } from '../../src/store/team-store.js';
import { teamPaths } from '../../src/team/paths.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

const temp = tempHome('teams-audit-');
after(temp.cleanup);
let teams = 0;
async function freshTeam(): Promise<{ store: TeamStore; log: string }> {
  const paths = teamPaths(temp.home, `team${teams++}`);
  const store = openFileStore(paths);
  await store.roster.ensure();
  return { store, log: fileLayout(paths.root).audit };
}

const names = (entries: readonly AuditEntry[]) => entries.map((e) => (e.event === 'member' ? e.name : e.event));

test('the file audit log: corrupt lines are reported with where they are and skipped; a torn tail waits; neither stops the log', async () => {
  const { store, log } = await freshTeam();
  await store.audit.append({ event: 'member', name: 'alice', change: 'added' });
  const corruptAt = readFileSync(log).length;
  appendFileSync(log, '{"event":"member","at":"nope"}\n');
  appendFileSync(log, '{"event":"mem');
  await store.audit.append({ event: 'member', name: 'bob', change: 'added' });
  const read = await store.audit.read();
  assert.deepEqual(names(read.entries), ['alice', 'bob']);
  assert.equal(read.problems.length, 2);
  assert.equal(read.problems[0]?.ref, `${log} at byte ${corruptAt}`);
  assert.match(read.problems[0]?.reason ?? '', /^at: /);
  assert.equal(read.problems[1]?.reason, 'not valid JSON (torn or corrupt line)');
  assert.ok(readFileSync(log, 'utf8').endsWith('\n'));
});

test('the file audit log: follow takes a line only once it is whole', async () => {
  const { store, log } = await freshTeam();
  const batches: AuditBatch[] = [];
  const following = await store.audit.follow((batch) => batches.push(batch));
  try {
    await store.audit.append({ event: 'member', name: 'dave', change: 'added' });
    const line = JSON.stringify({ event: 'member', at: new Date().toISOString(), name: 'carol', change: 'added' });
    appendFileSync(log, line.slice(0, 20));
    await waitFor(() => batches.length > 0, 'the first append followed');
    appendFileSync(log, `${line.slice(20)}\n`);
    await waitFor(() => names(batches.flatMap((b) => b.entries)).includes('carol'), 'the line followed once whole');
    assert.deepEqual(names(batches.flatMap((b) => b.entries)), ['dave', 'carol']);
    assert.deepEqual(batches.flatMap((b) => b.problems), []);
  } finally {
    await following.close();
  }
});

test('filter by agent: sender, recipient, broadcasts, requester, decider, subject, problems about it', () => {
  const at = '2030-01-01T10:00:00.000Z';
  const entries: AuditEntry[] = [
    { event: 'message', at, id: '01234567890123456789', type: 'message', from: 'alice', to: 'bob', summary: 'hi' },
    { event: 'message', at, id: '01234567890123456788', type: 'broadcast', from: 'lead', to: '*', summary: 'all' },
    { event: 'request', at, request_id: 'plan-a', kind: 'plan', from: 'carol', to: 'lead', from_state: 'pending', to_state: 'approved', by: 'human' },
    { event: 'member', at, name: 'bob', change: 'status idle → working' },
    { event: 'problem', at, agent: 'bob', what: 'message from bob set aside', reason: 'unknown recipient' },
    { event: 'problem', at, what: 'journal line 3', reason: 'corrupt' },
  ];
  const pick = (agent: string) => filterByAgent(entries, agent).map((e) => entries.indexOf(e));
  assert.deepEqual(pick('bob'), [0, 1, 3, 4]);
  assert.deepEqual(pick('alice'), [0, 1]);
  assert.deepEqual(pick('carol'), [1, 2]);
  assert.deepEqual(pick('human'), [1, 2]);
  assert.deepEqual(pick('lead'), [1, 2]);
  assert.equal(involves(entries[5]!, 'bob'), false);
});
