import { test } from 'node:test';
import assert from 'node:assert/strict';
import { logLineOf } from '../../src/store/agent-log.js';
import type { Envelope } from '../../src/protocol/messages.js';
import { addMember } from '../../src/store/roster-changes.js';
import type { SessionRecord } from '../../src/store/sessions.js';
import type { TeamStore } from '../../src/store/team-store.js';
import { waitFor } from '../helpers/wait.js';
import { textMessage } from '../fixtures/mailbox-envelopes.js';
import { linesOf, type Kit } from './conformance.js';

const prompt: SessionRecord = { type: 'user', content: [{ type: 'text', text: 'hi' }] };
const line = (text: string) => logLineOf({ type: 'input', text }).slice(0, -1);

async function historyOf(store: TeamStore, agent: string): Promise<Envelope[]> {
  const seen: Envelope[] = [];
  await (await store.mailboxes.observe(agent, (messages) => seen.push(...messages), { from: 'history' })).close();
  return seen;
}

/** Handle one message in `agent`'s mailbox and leave another waiting; give it a line of log. */
async function busy(store: TeamStore, agent: string): Promise<void> {
  await store.mailboxes.deliver(agent, textMessage('lead', agent, `${agent} handled`));
  const handled: Envelope[] = [];
  const subscription = await store.mailboxes.subscribe(agent, (event) => event.type === 'delivered' && handled.push(...event.messages));
  await waitFor(() => handled.length === 1, `${agent}'s message to be handled`);
  await subscription.close();
  await store.mailboxes.deliver(agent, textMessage('lead', agent, `${agent} waiting`));
  await store.agentLogs.append(agent, [line(`${agent} worked`)]);
}

/** The store's delete and clock: cleanup that leaves nothing behind, one time for every process. */
export function deleteCases(kit: Kit): void {
  test('delete: deleteMember takes its mailbox and log, and nothing of anyone else\'s', async () => {
    const { descriptor, store } = await kit.team();
    await addMember(store.roster, { name: 'bob', role: 'tester' });
    await busy(store, 'bob');
    await busy(store, 'carol');
    await store.deleteMember('bob');
    const other = await kit.reopen(descriptor);
    for (const seen of [store, other]) {
      assert.deepEqual(await seen.mailboxes.peek('bob'), { messages: [], problems: [] });
      assert.deepEqual(await historyOf(seen, 'bob'), []);
      assert.deepEqual((await seen.agentLogs.read('bob')).lines, []);
      assert.equal((await seen.mailboxes.peek('carol')).messages.length, 1, "carol's waiting message stays");
      assert.equal((await historyOf(seen, 'carol')).length, 2);
      assert.equal((await seen.agentLogs.read('carol')).lines.length, 1);
    }
    assert.ok((await store.roster.load())?.members.some((m) => m.name === 'bob'), 'the roster entry is the roster\'s to remove');
    await store.deleteMember('bob');
    await store.deleteMember('nobody');
    await assert.rejects(store.deleteMember('../config'), /agent name/);
    // A member of the same name starts afresh.
    await store.mailboxes.deliver('bob', textMessage('lead', 'bob', 'new bob'));
    const delivered: Envelope[] = [];
    kit.keep(await store.mailboxes.subscribe('bob', (event) => event.type === 'delivered' && delivered.push(...event.messages)));
    await waitFor(() => delivered.length > 0, "the new bob's message");
    assert.deepEqual(delivered.map((m) => (m.type === 'message' ? m.text : m.type)), ['new bob']);
  });

  test('delete: a process that delivered to the member before it was deleted reaches the next member of that name', async () => {
    const { descriptor, store } = await kit.team();
    const sender = kit.child(descriptor, 'send', 'lead', 'bob');
    await waitFor(() => linesOf(sender).includes('ready'), 'the sender');
    sender.process.stdin?.write('old\n');
    await waitFor(() => linesOf(sender).includes('sent old'), 'the old message');
    await store.deleteMember('bob');
    assert.deepEqual(await store.mailboxes.peek('bob'), { messages: [], problems: [] });
    sender.process.stdin?.write('new\n');
    await waitFor(() => linesOf(sender).includes('sent new'), 'the new message');
    const delivered: Envelope[] = [];
    kit.keep(await store.mailboxes.subscribe('bob', (event) => event.type === 'delivered' && delivered.push(...event.messages)));
    await waitFor(() => delivered.length > 0, 'the new message to be delivered');
    assert.deepEqual(delivered.map((m) => (m.type === 'message' ? m.text : m.type)), ['new']);
    sender.process.stdin?.end();
    assert.equal((await sender.exited).code, 0, sender.stderr());
  });

  test('delete: deleteTeam leaves the team as if never created, and other teams as they were', async () => {
    const { descriptor, store } = await kit.team();
    const kept = await kit.team();
    for (const { store: each } of [{ store }, kept]) {
      await addMember(each.roster, { name: 'bob', role: 'tester' });
      await busy(each, 'bob');
      await each.requests.open({ request_id: 'plan-a', kind: 'plan', from: 'bob', to: 'lead', created_at: new Date().toISOString(), deadline_at: new Date(Date.now() + 600_000).toISOString(), summary: 'a plan' });
      await each.tasks.create({ subject: 'a task' }, 'lead');
      await each.audit.append({ event: 'member', name: 'bob', change: 'added (role tester)' });
      await each.sessions.create({ id: 'session-0123456789', started_at: '2026-01-02T03:04:05.000Z', first_prompt: 'hi' });
      await each.sessions.append('session-0123456789', 'lead', prompt);
    }
    await store.deleteTeam();
    for (const seen of [store, await kit.reopen(descriptor)]) {
      assert.equal(await seen.roster.load(), undefined);
      assert.deepEqual(await seen.requests.list(), []);
      assert.deepEqual(await seen.tasks.list(), []);
      assert.deepEqual(await seen.tasks.problems(), []);
      assert.deepEqual(await seen.audit.read(), { entries: [], problems: [] });
      assert.deepEqual(await seen.sessions.list(), { sessions: [], problems: [] });
      assert.deepEqual(await seen.mailboxes.peek('bob'), { messages: [], problems: [] });
      assert.deepEqual(await historyOf(seen, 'bob'), []);
      assert.deepEqual((await seen.agentLogs.read('bob')).lines, []);
    }
    const other = kept.store;
    assert.deepEqual((await other.roster.load())?.members.map((m) => m.name), ['lead', 'bob']);
    assert.equal((await other.requests.list()).length, 1);
    assert.equal((await other.tasks.list()).length, 1);
    assert.equal((await other.audit.read()).entries.length, 1);
    assert.equal((await other.sessions.list()).sessions.length, 1);
    assert.equal((await other.mailboxes.peek('bob')).messages.length, 1);
    assert.equal((await other.agentLogs.read('bob')).lines.length, 1);
    await store.deleteTeam();
    // Made again from nothing, it is a new team: the lead alone.
    assert.deepEqual((await store.roster.ensure()).members.map((m) => m.name), ['lead']);
  });

  test('clock: now() is the store\'s time, the same for every process that opens it', async () => {
    const { descriptor, store } = await kit.team();
    const before = Date.now();
    const mine = await store.now();
    const theirs = await (await kit.reopen(descriptor)).now();
    const after = Date.now();
    assert.ok(mine instanceof Date && !Number.isNaN(mine.getTime()));
    // On one machine the store's clock and this one's agree (a second's leeway, as the audit's stamps).
    for (const time of [mine, theirs]) assert.ok(time.getTime() >= before - 1000 && time.getTime() <= after + 1000, `${time.toISOString()} is now`);
    assert.ok(theirs.getTime() >= mine.getTime() - 1000, 'the clock does not go back between processes');
  });
}
