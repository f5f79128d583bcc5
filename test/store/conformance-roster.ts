import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LEAD } from '../../src/protocol/names.js';
import { memberNames, type TeamConfig } from '../../src/store/roster.js';
import { addMember, setMemberStatus } from '../../src/store/roster-changes.js';
import { waitFor } from '../helpers/wait.js';
import { succeeded, type Kit } from './conformance.js';

export function rosterCases(kit: Kit): void {
  test('roster: none until ensured; ensuring makes the lead alone, once, with the options given', async () => {
    const { descriptor, store } = await kit.empty();
    assert.equal(await store.roster.load(), undefined);
    await assert.rejects(store.roster.update(() => undefined), /no team/);
    const made = await store.roster.ensure({ deadlines_ms: { shutdown: 5_000 } });
    assert.equal(made.name, store.team);
    assert.deepEqual(memberNames(made), [LEAD]);
    assert.deepEqual(made.deadlines_ms, { shutdown: 5_000 });
    const elsewhere = await kit.reopen(descriptor);
    assert.deepEqual(await elsewhere.roster.ensure(), made, 'a second ensure finds the team');
    assert.deepEqual(await elsewhere.roster.load(), made);
  });

  test('roster: an update is kept whole and validated; one that throws or breaks the schema writes nothing', async () => {
    const { store } = await kit.team();
    const before = await store.roster.load();
    const { config, result } = await store.roster.update((draft) => {
      draft.sandbox = 'sandbox OFF';
      return 42;
    });
    assert.equal(result, 42);
    assert.equal(config.sandbox, 'sandbox OFF');
    assert.deepEqual(await store.roster.load(), config);
    await assert.rejects(store.roster.update(() => { throw new Error('no thanks'); }), /no thanks/);
    await assert.rejects(
      store.roster.update((draft) => { draft.members.push({ ...draft.members[0]!, role: 'lead' }); }),
      /member 'lead' is listed twice/,
    );
    assert.deepEqual(await store.roster.load(), config);
    assert.notDeepEqual(before, config);
  });

  test("roster: a member's journal session is kept, read back elsewhere, and moved only when a start names another", async () => {
    // A respawn after the lead's /clear or /resume finds the conversation by this field (lead/respawn.ts).
    const { descriptor, store } = await kit.team();
    await addMember(store.roster, { name: 'bob', role: 'notes', session: 'session-aaaaaaaaaa' });
    const elsewhere = await kit.reopen(descriptor);
    const bob = async () => (await elsewhere.roster.load())?.members.find((m) => m.name === 'bob');
    assert.equal((await bob())?.session, 'session-aaaaaaaaaa');
    await setMemberStatus(store.roster, 'bob', 'crashed', { pid: null });
    assert.equal((await bob())?.session, 'session-aaaaaaaaaa', 'a status change leaves it');
    await setMemberStatus(store.roster, 'bob', 'starting', { session: 'session-bbbbbbbbbb' });
    assert.equal((await bob())?.session, 'session-bbbbbbbbbb');
    await assert.rejects(store.roster.update((draft) => { for (const m of draft.members) if (m.name === 'bob') m.session = '../elsewhere'; }), /session/);
    assert.equal((await bob())?.session, 'session-bbbbbbbbbb', 'a malformed one is refused by the schema, in either backend');
  });

  test('roster: updates raced from two processes lose none', async () => {
    const { descriptor, store } = await kit.team();
    const count = 30;
    const racers = ['p', 'q'].map((prefix) => kit.child(descriptor, 'roster', prefix, String(count)));
    await kit.go(racers);
    for (const racer of racers) await succeeded(racer, 'a roster racer');
    const config = await store.roster.load();
    assert.ok(config);
    const names = memberNames(config);
    assert.equal(names.length, 1 + 2 * count, 'every member added');
    for (const prefix of ['p', 'q']) for (let i = 0; i < count; i++) assert.ok(names.includes(`${prefix}-${i}`), `${prefix}-${i} is on the roster`);
    assert.equal(config.members.find((m) => m.name === LEAD)?.usage?.input_tokens, 2 * count, "every addition to the lead's usage counted");
  });

  test('roster: a watch gives the roster at once, then the changes another process makes, in order', async () => {
    const { descriptor, store } = await kit.team();
    const seen: TeamConfig[] = [];
    const problems: Error[] = [];
    kit.keep(await store.roster.watch((config) => seen.push(config), (error) => problems.push(error)));
    assert.deepEqual(seen.map(memberNames), [[LEAD]], 'the roster as it was, before the watch resolved');
    const adder = kit.child(descriptor, 'roster', 'w', '2');
    await kit.go([adder]);
    await succeeded(adder, 'the adder');
    await waitFor(() => seen.at(-1)?.members.length === 3, 'the watch to see both members');
    await addMember(store.roster, { name: 'here', role: 'coder' });
    await waitFor(() => seen.at(-1)?.members.some((m) => m.name === 'here'), "the watch to see this process's own change");
    const sizes = seen.map((config) => config.members.length);
    assert.deepEqual(sizes, [...sizes].sort((a, b) => a - b), 'never an older roster after a newer one');
    assert.deepEqual(problems, []);
  });
}
