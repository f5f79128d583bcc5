import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { tempHome } from '../helpers/temp.js';
import { killAll } from '../helpers/children.js';
import { storeOf } from '../helpers/store.js';
import { TeamBus } from '../../src/team/bus.js';
import { newRequestId } from '../../src/protocol/ids.js';
import type { Envelope } from '../../src/protocol/messages.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

after(killAll);

/** Another process's side of the protocol, in-process: the CLI is the human's side. */
function teammateBus(home: string): { bus: TeamBus; inbox: () => Promise<Envelope[]> } {
  const store = storeOf(home);
  return { bus: new TeamBus(store), inbox: async () => (await store.mailboxes.peek('alice')).messages };
}

describe('teams requests / approve / reject', () => {
  const { home, cleanup } = tempHome();
  after(cleanup);
  before(async () => {
    assert.equal((await runCli(home, ['member', 'add', 'alice', '--role', 'coder'])).code, 0);
  });

  test('a plan request is listed, approved once, and the teammate gets the response', async () => {
    const { bus, inbox } = teammateBus(home);
    const id = newRequestId('plan');
    await bus.send({ type: 'plan_approval_request', from: 'alice', to: 'lead', request_id: id, plan: '1. read\n2. write' });

    const listed = (await runCli(home, ['requests', '--jsonl', '--state', 'pending'])).stdout.trim().split('\n').map((l) => JSON.parse(l) as { request_id: string; kind: string; from: string });
    assert.deepEqual(listed.map((r) => [r.request_id, r.kind, r.from]), [[id, 'plan', 'alice']]);
    assert.match((await runCli(home, ['status'])).stdout, new RegExp(`${id}\\s+plan\\s+alice`));

    const approved = await runCli(home, ['approve', id, '--feedback', 'go ahead']);
    assert.equal(approved.code, 0, approved.stderr);
    const responses = (await inbox()).filter((m) => m.type === 'plan_approval_response');
    assert.equal(responses.length, 1);
    assert.deepEqual(responses[0], { ...responses[0], from: 'lead', request_id: id, approve: true, feedback: 'go ahead' });

    const again = await runCli(home, ['approve', id]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, new RegExp(`request '${id}' was already approved`));
    assert.equal((await inbox()).filter((m) => m.type === 'plan_approval_response').length, 1);
  });

  test('reject needs a reason and delivers it as feedback', async () => {
    const { bus, inbox } = teammateBus(home);
    const id = newRequestId('permission');
    await bus.send({ type: 'permission_request', from: 'alice', to: 'lead', request_id: id, tool_name: 'bash', tool_input: { command: 'rm -rf build' }, reason: 'clean' });
    const missing = await runCli(home, ['reject', id]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /required option '--reason <text>'/);
    const rejected = await runCli(home, ['reject', id, '--reason', 'use make clean']);
    assert.equal(rejected.code, 0, rejected.stderr);
    const response = (await inbox()).find((m) => m.type === 'permission_response');
    assert.ok(response && response.type === 'permission_response');
    assert.equal(response.approve, false);
    assert.equal(response.feedback, 'use make clean');
  });

  test('errors: unknown id, a shutdown request, a bad --state', async () => {
    const unknown = await runCli(home, ['approve', 'plan-zzzzzzzzzz']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown request_id 'plan-zzzzzzzzzz'/);

    const lead = teammateBus(home).bus;
    const shutdownId = newRequestId('shutdown');
    await lead.send({ type: 'shutdown_request', from: 'lead', to: 'alice', request_id: shutdownId, reason: 'done' });
    const notOurs = await runCli(home, ['approve', shutdownId]);
    assert.equal(notOurs.code, 2);
    assert.match(notOurs.stderr, /only alice answers it/);

    const state = await runCli(home, ['requests', '--state', 'waiting']);
    assert.equal(state.code, 2);
    assert.match(state.stderr, /--state must be one of pending, approved, rejected, expired, cancelled/);
  });

  test('an overdue plan expires as a rejection the teammate is told about; approving it then fails', async () => {
    await storeOf(home).roster.update((config) => {
      config.deadlines_ms = { plan: 1 };
    });
    const { bus, inbox } = teammateBus(home);
    const id = newRequestId('plan');
    await bus.send({ type: 'plan_approval_request', from: 'alice', to: 'lead', request_id: id, plan: 'slow plan' });
    const approve = await runCli(home, ['approve', id]);
    assert.equal(approve.code, 2);
    assert.match(approve.stderr, new RegExp(`request '${id}'.*expired`));
    const listed = (await runCli(home, ['requests', '--json', '--state', 'expired'])).stdout;
    assert.match(listed, new RegExp(id));
    const told = (await inbox()).find((m) => m.type === 'plan_approval_response' && m.request_id === id);
    assert.ok(told && told.type === 'plan_approval_response');
    assert.equal(told.approve, false);
    assert.match(told.feedback ?? '', /no decision came in time/i);
    await storeOf(home).roster.update((config) => {
      delete config.deadlines_ms;
    });
  });
});

describe('teams requests <id>: one request with a preview of what it will do', () => {
  const { home, cleanup } = tempHome();
  const { home: place, cleanup: cleanPlace } = tempHome('teams-work-');
  const work = join(place, 'work');
  after(cleanup);
  after(cleanPlace);
  before(async () => {
    assert.equal((await runCli(home, ['member', 'add', 'alice', '--role', 'coder'])).code, 0);
    mkdirSync(work);
    writeFileSync(join(work, 'app.txt'), 'a\nb\nc\n');
    writeFileSync(join(place, 'secret.txt'), 'TOPSECRET\n');
  });

  async function ask(tool_name: string, tool_input: Record<string, unknown>, reason: string): Promise<string> {
    const id = newRequestId('permission');
    await new TeamBus(storeOf(home)).send({ type: 'permission_request', from: 'alice', to: 'lead', request_id: id, tool_name, tool_input, reason });
    return id;
  }

  test('an edit is shown as a diff against the file in the working directory, plain and as JSON', async () => {
    const id = await ask('edit_file', { path: 'app.txt', old_text: 'b', new_text: 'B' }, 'edit app.txt');
    const shown = await runCli(home, ['requests', id], {}, work);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, new RegExp(`^${id}: permission request from alice to lead, opened \\S+, pending until `));
    assert.ok(shown.stdout.includes(['  edit_file app.txt', '  asks because: edit app.txt', '  @@ -1,3 +1,3 @@', '   a', '  -b', '  +B', '   c'].join('\n')), shown.stdout);

    const json = await runCli(home, ['requests', id, '--json'], {}, work);
    const parsed = JSON.parse(json.stdout) as { request_id: string; preview: Array<{ kind: string; text: string }> };
    assert.equal(parsed.request_id, id);
    assert.deepEqual(parsed.preview.filter((l) => l.kind === 'removed' || l.kind === 'added'), [{ kind: 'removed', text: '-b' }, { kind: 'added', text: '+B' }]);
    // The listing is as it was: a table, no preview.
    const listed = await runCli(home, ['requests'], {}, work);
    assert.match(listed.stdout, /^REQUEST\s+KIND/);
    assert.doesNotMatch(listed.stdout, /@@/);
  });

  test('a path outside the working directory is never read; control characters are escaped', async () => {
    const id = await ask('write_file', { path: '../secret.txt', content: 'new \u001b[2J\n' }, 'outside');
    const shown = await runCli(home, ['requests', id], {}, work);
    assert.equal(shown.code, 0, shown.stderr);
    assert.doesNotMatch(shown.stdout, /TOPSECRET/);
    assert.match(shown.stdout, /the current file cannot be read \(path '\.\.\/secret\.txt' is outside the working directory/);
    assert.ok(shown.stdout.includes('1  new \\x1b[2J'), shown.stdout);
    assert.ok(!shown.stdout.includes('\u001b'));
  });

  test('an unknown id, or one with --state, is a usage error', async () => {
    const unknown = await runCli(home, ['requests', 'req-nope'], {}, work);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown request_id 'req-nope'/);
    const both = await runCli(home, ['requests', 'req-nope', '--state', 'pending'], {}, work);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--state lists requests; it does not go with a request_id/);
  });
});
