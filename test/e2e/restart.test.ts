import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../../src/lib/file-lock.js';
import { addMember } from '../../src/store/roster-changes.js';
import { killAll } from '../helpers/children.js';
import { storeOf } from '../helpers/store.js';
import { waitFor } from '../helpers/wait.js';
import { TeamSession } from './session.js';

after(killAll);

const CONTINUED = 'RESTARTED: carry on where you were';

/** The continued lead stays in a model call that never ends, so the run stays up for a respawn. */
const HOLD_ON = { name: 'continued lead: hold on', when: { agent: 'lead', last: 'RESTARTED' }, reply: { text: 'Looking at where we were', stall_after_deltas: 1 } };

/** After spawning alice, the lead runs a risky command itself: its own request waits for the human too. */
const LEAD_ASKS_TOO = { name: 'lead: clear the cache itself', when: { agent: 'lead', after_tool: 'spawn_teammate' }, reply: { text: 'Meanwhile I clear the cache.', tool_uses: [{ name: 'bash', input: { command: 'rm -rf build/cache' } }] } };

/** The respawned alice goes straight for a write: in plan mode it is refused. */
const ALICE_WRITES = [
  { name: 'alice: respawned, writes at once', when: { agent: 'alice', last: 'the lead started it again' }, reply: { text: 'Writing the notes now.', tool_uses: [{ name: 'write_file', input: { path: 'notes.md', content: '# Notes\n' } }] } },
  { name: 'alice: the write was refused', when: { agent: 'alice', after_tool: 'write_file', last: 'Not allowed' }, reply: { text: 'REFUSED: still in plan mode' } },
  { name: 'alice: the write went through', when: { agent: 'alice', after_tool: 'write_file' }, reply: { text: 'WRITTEN: not in plan mode' } },
];

type Json = Record<string, unknown>;

const sessionId = async (session: TeamSession) =>
  String((await waitFor(() => session.events().find((e) => e.type === 'session'), `the session line; lead stderr: ${session.lead.stderr().slice(-500)}`)).id);

/** What alice's journal says after its respawn, once it has answered the result of its write. */
async function aliceAfterWrite(session: TeamSession, id: string): Promise<string> {
  return waitFor(async () => {
    const records = (await session.store.sessions.read(id, 'alice')).entries.map((e) => JSON.stringify(e.record));
    return records.find((r) => r.includes('REFUSED: still in plan mode') || r.includes('WRITTEN: not in plan mode'));
  }, 'the respawned alice to answer the result of its write');
}

describe('a lead that starts after an earlier one died', () => {
  test('teammates left "running" by a SIGKILLed lead are marked crashed, the requests nobody waits for are cancelled, and a respawn names them, in plan mode', async (t) => {
    const first = await TeamSession.start({ extraRules: [LEAD_ASKS_TOO] });
    t.after(() => first.cleanup());
    const id = await sessionId(first);
    const plan = await first.pending('plan');
    const own = await waitFor(async () => (await first.requests()).find((r) => r.kind === 'permission' && r.from === 'lead' && r.state === 'pending'), 'the lead\'s own permission request');
    const alice = await first.memberStatus('alice', 'awaiting_approval');
    assert.ok(alice.plan_mode_since !== undefined, 'the spawn recorded its plan mode on the roster');
    const pid = alice.pid ?? 0;
    // A power loss, as near as a test gets: alice is frozen so that she cannot see her lead go
    // and record that she stopped; then both die.
    process.kill(pid, 'SIGSTOP');
    process.kill(first.lead.pid, 'SIGKILL');
    assert.equal((await first.exited()).signal, 'SIGKILL');
    process.kill(pid, 'SIGKILL');
    await waitFor(() => !isProcessAlive(pid), 'alice\'s process to be gone');
    const left = await first.member('alice');
    assert.deepEqual([left?.status, left?.pid], ['awaiting_approval', pid], 'the roster still says alice waits');

    const second = await TeamSession.start({ home: first.home, prompt: CONTINUED, extraArgs: ['--continue'], extraRules: [HOLD_ON, ...ALICE_WRITES] });
    assert.equal(await sessionId(second), id);
    const crashed = await second.memberStatus('alice', 'crashed');
    assert.equal(crashed.pid, null);
    const records = await second.requests();
    for (const [request, note] of [[plan, /alice's process is gone/], [own, /the lead that asked is gone/]] as const) {
      const now = records.find((r) => r.request_id === request.request_id);
      assert.equal(now?.state, 'cancelled', request.request_id);
      assert.match(now?.note ?? '', note);
    }
    const problems = await waitFor(() => {
      const texts = second.events().flatMap((e) => (e.type === 'problem' ? [String(e.text)] : []));
      return texts.length >= 3 ? texts : undefined;
    }, `the recovery's lines; lead stdout: ${second.lead.stdout().slice(-1500)}`);
    assert.deepEqual(problems.slice(0, 3), [
      `alice was awaiting_approval, but its process (pid ${pid}) ended with the earlier lead: marked crashed`,
      `cancelled the pending requests of alice, whose process is gone: ${plan.request_id}`,
      `cancelled the earlier lead's own pending requests, as the lead that asked is gone: ${own.request_id}`,
    ]);
    const audit = await second.audit();
    assert.ok(audit.some((e) => e.event === 'member' && e.name === 'alice' && e.change.includes('awaiting_approval → crashed')), 'the crash is audited');
    const cancelledAudit = audit.flatMap((e) => (e.event === 'request' && e.to_state === 'cancelled' ? [e.request_id] : []));
    assert.deepEqual(cancelledAudit.sort(), [plan.request_id, own.request_id].sort());

    // The lead's model heard it too, with the prompt that continued the session: journaled before that call.
    const told = await waitFor(async () => {
      const entries = (await second.store.sessions.read(id, 'lead')).entries;
      return entries.map((entry) => JSON.stringify(entry.record)).find((text) => text.includes('[lead restarted]'));
    }, "the lead's model to be told what its start put right");
    assert.ok(told.includes(`alice was awaiting_approval, but its process (pid ${pid}) ended with the earlier lead`) && told.includes(CONTINUED), told);

    const respawned = await second.cli(['respawn', 'alice']);
    assert.equal(respawned.code, 0, `${respawned.stderr}; lead: ${second.lead.stdout().slice(-2000)}`);
    assert.match(respawned.stdout, new RegExp(`^respawned alice \\(pid \\d+, plan mode\\) with its conversation; told its cancelled requests: ${plan.request_id}\\n$`));
    assert.match(await aliceAfterWrite(second, id), /REFUSED: still in plan mode/);
    process.kill(second.lead.pid, 'SIGTERM');
    assert.equal((await second.exited()).code, 0, second.lead.stderr());
  });

  test('plan mode survives the restart: a teammate spawned in plan mode by a killed lead is respawned in it, and its write is refused', async (t) => {
    const first = await TeamSession.start();
    t.after(() => first.cleanup());
    const id = await sessionId(first);
    const plan = await first.pending('plan');
    const pid = (await first.memberStatus('alice', 'awaiting_approval')).pid ?? 0;
    process.kill(first.lead.pid, 'SIGKILL');
    assert.equal((await first.exited()).signal, 'SIGKILL');
    // Alice sees her lead go and stops by herself; her plan request is left pending.
    await first.memberStatus('alice', 'shutdown');
    await waitFor(() => !isProcessAlive(pid), 'alice\'s process to be gone');
    assert.equal((await first.requests()).find((r) => r.request_id === plan.request_id)?.state, 'pending');

    const second = await TeamSession.start({ home: first.home, prompt: CONTINUED, extraArgs: ['--continue'], extraRules: [HOLD_ON, ...ALICE_WRITES] });
    assert.equal(await sessionId(second), id);
    await waitFor(async () => (await second.requests()).find((r) => r.request_id === plan.request_id && r.state === 'cancelled'), 'the orphaned plan request to be cancelled');
    const respawned = await second.cli(['respawn', 'alice']);
    assert.equal(respawned.code, 0, `${respawned.stderr}; lead: ${second.lead.stdout().slice(-2000)}`);
    assert.match(respawned.stdout, new RegExp(`^respawned alice \\(pid \\d+, plan mode\\) with its conversation; told its cancelled requests: ${plan.request_id}\\n$`));
    const answer = await aliceAfterWrite(second, id);
    assert.match(answer, /REFUSED: still in plan mode/);
    const journal = (await second.store.sessions.read(id, 'alice')).entries.map((e) => JSON.stringify(e.record)).join('\n');
    assert.match(journal, /Not allowed: plan mode: write_file \(it changes files\) is not allowed until your plan is approved/);
    assert.equal(existsSync(join(second.workdir, 'notes.md')), false, 'nothing was written');
    const events = second.events() as Json[];
    assert.ok(events.some((e) => e.type === 'problem' && String(e.text).startsWith(`cancelled the pending requests of alice, whose process is gone: ${plan.request_id}`)));
    process.kill(second.lead.pid, 'SIGTERM');
    assert.equal((await second.exited()).code, 0, second.lead.stderr());
  });

  test('pids reused since: a roster naming a live process that started at another time is neither a running lead nor a running teammate', async (t) => {
    const prepared = TeamSession.prepare({ prompt: 'Anything to do?', extraRules: [{ name: 'lead: nothing to do', when: { agent: 'lead', turn: 1 }, reply: { text: 'Nothing to do.' } }] });
    const store = storeOf(prepared.home);
    await store.roster.ensure();
    await addMember(store.roster, { name: 'bob', role: 'coder' });
    // This test's own process stands for whatever got the dead processes' pids: alive, but started at another time.
    await store.roster.update((team) => {
      for (const member of team.members) Object.assign(member, { status: 'working', pid: process.pid, pid_start: 'another-start' });
    });
    const session = await prepared.start();
    t.after(() => session.cleanup());
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    const bob = await session.member('bob');
    assert.deepEqual([bob?.status, bob?.pid], ['crashed', null]);
    const lines = session.events().flatMap((e) => (e.type === 'problem' ? [String(e.text)] : []));
    assert.deepEqual(lines, [`bob was working, but its process (pid ${process.pid}) ended with the earlier lead: marked crashed`]);
  });
});
