import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { appendAudit, filterByAgent, involves, readAudit, type AuditEntry } from '../../src/store/audit.js';
import { teamPaths, type TeamPaths } from '../../src/team/paths.js';
import { tempHome } from '../helpers/temp.js';

const temp = tempHome('teams-audit-');
after(temp.cleanup);
let teams = 0;
function freshTeam(): TeamPaths {
  const paths = teamPaths(temp.home, `team${teams++}`);
  mkdirSync(paths.root, { recursive: true });
  return paths;
}

const AT = new Date('2030-01-01T10:00:00.000Z');

test('appendAudit stamps each entry and readAudit reads them back, incrementally', () => {
  const paths = freshTeam();
  const first = appendAudit(paths, { event: 'member', name: 'alice', change: 'added (role coder)' }, AT);
  assert.deepEqual(first, { event: 'member', at: AT.toISOString(), name: 'alice', change: 'added (role coder)' });
  const all = readAudit(paths.audit);
  assert.deepEqual(all.entries, [first]);
  assert.deepEqual(all.problems, []);
  const second = appendAudit(paths, {
    event: 'request',
    request_id: 'plan-a',
    kind: 'plan',
    from: 'alice',
    to: 'lead',
    from_state: null,
    to_state: 'pending',
    by: 'alice',
  });
  const more = readAudit(paths.audit, all.nextOffset);
  assert.deepEqual(more.entries, [second]);
  assert.deepEqual(readAudit(paths.audit, more.nextOffset).entries, []);
});

test('a malformed entry is refused before it is written', () => {
  const paths = freshTeam();
  assert.throws(() => appendAudit(paths, { event: 'member', name: 'Not A Name', change: 'x' }), /agent name/);
  assert.throws(() => appendAudit(paths, { event: 'problem', what: '', reason: 'r' }));
  assert.deepEqual(readAudit(paths.audit).entries, []);
});

test('corrupt lines are reported and skipped; a torn tail waits; neither stops the log', () => {
  const paths = freshTeam();
  appendAudit(paths, { event: 'member', name: 'alice', change: 'added' });
  appendFileSync(paths.audit, '{"event":"member","at":"nope"}\n');
  appendFileSync(paths.audit, '{"event":"mem');
  appendAudit(paths, { event: 'member', name: 'bob', change: 'added' });
  const read = readAudit(paths.audit);
  assert.deepEqual(read.entries.map((e) => (e.event === 'member' ? e.name : e.event)), ['alice', 'bob']);
  assert.equal(read.problems.length, 2);
  assert.match(read.problems[0]?.reason ?? '', /^at: /);
  assert.equal(read.problems[1]?.reason, 'not valid JSON (torn or corrupt line)');
  assert.equal(read.tornTail, false);
  assert.ok(readFileSync(paths.audit, 'utf8').endsWith('\n'));
});

test('filter by agent: sender, recipient, broadcasts, requester, decider, subject, problems about it', () => {
  const at = AT.toISOString();
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
