import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditEntry } from '../../src/store/audit.js';
import type { StoredProblem } from '../../src/store/team-store.js';
import { waitFor } from '../helpers/wait.js';
import type { Kit } from './conformance.js';

const changes = (entries: readonly AuditEntry[]) => entries.map((e) => (e.event === 'member' ? e.change : e.event));

export function auditCases(kit: Kit): void {
  test('audit: an entry is stamped as it is appended and read back in order; a malformed one is refused unwritten', async () => {
    const { store } = await kit.team();
    assert.deepEqual(await store.audit.read(), { entries: [], problems: [] });
    const before = Date.now();
    const first = await store.audit.append({ event: 'member', name: 'alice', change: 'added (role coder)' });
    assert.deepEqual(first, { event: 'member', at: first.at, name: 'alice', change: 'added (role coder)' });
    assert.ok(Date.parse(first.at) >= before - 1000 && Date.parse(first.at) <= Date.now() + 1000, 'stamped now');
    const second = await store.audit.append({ event: 'request', request_id: 'plan-a', kind: 'plan', from: 'alice', to: 'lead', from_state: null, to_state: 'pending', by: 'alice' });
    await assert.rejects(store.audit.append({ event: 'member', name: 'Not A Name', change: 'x' }), /agent name/);
    await assert.rejects(store.audit.append({ event: 'problem', what: '', reason: 'r' }));
    assert.deepEqual(await store.audit.read(), { entries: [first, second], problems: [] });
  });

  test('audit: follow gives the log, then what other openings append, each once and in order', async () => {
    const { descriptor, store } = await kit.team();
    await store.audit.append({ event: 'member', name: 'alice', change: 'one' });
    const seen: AuditEntry[] = [];
    const problems: StoredProblem[] = [];
    kit.keep(await store.audit.follow((batch) => {
      seen.push(...batch.entries);
      problems.push(...batch.problems);
    }));
    assert.deepEqual(changes(seen), ['one'], 'the log so far, before follow resolved');
    const elsewhere = await kit.reopen(descriptor);
    for (const change of ['two', 'three', 'four']) await elsewhere.audit.append({ event: 'member', name: 'bob', change });
    await waitFor(() => seen.length >= 4, 'the appends to be followed');
    await store.audit.append({ event: 'member', name: 'alice', change: 'five' });
    await waitFor(() => seen.length >= 5, 'its own append to be followed');
    assert.deepEqual(changes(seen), ['one', 'two', 'three', 'four', 'five']);
    assert.deepEqual(changes((await store.audit.read()).entries), changes(seen));
    assert.deepEqual(problems, []);
  });
}
