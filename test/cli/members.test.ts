import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { storeOf } from '../helpers/store.js';
import { tempHome } from '../helpers/temp.js';
import { textMessage } from '../fixtures/mailbox-envelopes.js';
import { killAll } from '../helpers/children.js';
import { setMemberStatus } from '../../src/store/roster-changes.js';

after(killAll);

describe('teams member / status', () => {
  const { home, cleanup } = tempHome();
  after(cleanup);

  test('status before the team exists says how to create it, exit 2', async () => {
    const result = await runCli(home, ['status']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /no team 'default'.*teams member add/);
  });

  test('member add creates the team with the lead and the member', async () => {
    const added = await runCli(home, ['member', 'add', 'alice', '--role', 'coder']);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /added alice \(coder\)/);
    const status = await runCli(home, ['status', '--json']);
    assert.equal(status.code, 0, status.stderr);
    const parsed = JSON.parse(status.stdout) as { members: { name: string; role: string; status: string; pid: number | null }[] };
    assert.deepEqual(parsed.members.map((m) => [m.name, m.role, m.status, m.pid]), [
      ['lead', 'lead', 'registered', null],
      ['alice', 'coder', 'registered', null],
    ]);
    const text = await runCli(home, ['status']);
    assert.match(text.stdout, /alice\s+coder\s+registered/);
    assert.match(text.stdout, /no pending requests/);
  });

  test('usage and validation errors exit 2 with a specific reason', async () => {
    const cases: [string[], RegExp][] = [
      [['member', 'add', 'Bob', '--role', 'coder'], /agent name 'Bob' must match/],
      [['member', 'add', '../evil', '--role', 'coder'], /may not contain/],
      [['member', 'add', 'bob'], /required option '--role <role>' not specified/],
      [['member', 'add', '--role', 'coder'], /missing required argument 'name'/],
      [['member', 'add', 'alice', '--role', 'coder'], /already has a member named 'alice'/],
      [['member', 'remove', 'lead'], /lead/],
      [['member', 'remove', 'alcie'], /did you mean 'alice'/],
      [['--team', 'Bad.Team', 'status'], /team name 'Bad.Team'/],
      [['nosuchcommand'], /unknown command 'nosuchcommand'/],
      // Checked before any lead is asked: the id's rule is the one --model and TEAMS_MODEL follow.
      [['spawn', 'hal', '--role', 'checker', '--model', 'haiku please'], /invalid model id 'haiku please': must be a model id such as claude-sonnet-5-5/],
    ];
    for (const [args, pattern] of cases) {
      const result = await runCli(home, args);
      assert.equal(result.code, 2, `${args.join(' ')} → ${result.code} ${result.stderr}`);
      assert.match(result.stderr, pattern, args.join(' '));
    }
  });

  test('member remove takes a member off the roster, and its mailbox and log with it', async () => {
    assert.equal((await runCli(home, ['member', 'add', 'bob', '--role', 'tester'])).code, 0);
    const store = storeOf(home);
    await store.mailboxes.deliver('bob', textMessage('alice', 'bob', 'for the old bob'));
    await store.agentLogs.append('bob', ['{"type":"raw-ish"}']);
    const removed = await runCli(home, ['member', 'remove', 'bob']);
    assert.equal(removed.code, 0, removed.stderr);
    const status = JSON.parse((await runCli(home, ['status', '--json'])).stdout) as { members: { name: string }[] };
    assert.deepEqual(status.members.map((m) => m.name), ['lead', 'alice']);
    // A member added again under the name starts with nothing of the old one's.
    assert.deepEqual((await store.mailboxes.peek('bob')).messages, []);
    assert.deepEqual((await store.agentLogs.read('bob')).lines, []);
    await store.close();
  });

  test("member remove frees the member's tasks: in progress back to pending, assigned ones unassigned, each with a note, and says so", async () => {
    for (const name of ['carol', 'dave']) assert.equal((await runCli(home, ['member', 'add', name, '--role', 'coder'])).code, 0);
    for (const [subject, who] of [['assigned', 'carol'], ['claimed', 'carol'], ['another', 'dave']] as const) {
      assert.equal((await runCli(home, ['task', 'add', subject, '--assign', who])).code, 0);
    }
    const store = storeOf(home);
    try {
      const claimed = await store.tasks.claim('carol', '2');
      assert.ok(claimed.ok, JSON.stringify(claimed));
      const removed = await runCli(home, ['member', 'remove', 'carol']);
      assert.equal(removed.code, 0, removed.stderr);
      assert.equal(removed.stdout, 'removed carol from team default\ntask 2 was in progress with carol: back to pending, unowned\ntask 1 was assigned to carol: unassigned\n');
      const board = await store.tasks.list();
      assert.deepEqual(board.map((t) => [t.id, t.status, t.owner ?? null, t.notes?.at(-1)?.text ?? null]), [
        ['1', 'pending', null, 'carol was removed from the team; unassigned'],
        ['2', 'pending', null, 'carol was removed from the team; back to pending'],
        ['3', 'pending', 'dave', null],
      ]);
      const next = await store.tasks.claim('dave', '1');
      assert.ok(next.ok, 'another teammate may claim it now');
    } finally {
      await store.close();
    }
  });

  test("status shows a HOST column once a member runs on another machine, and --json each member's host", async () => {
    const before = await runCli(home, ['status']);
    assert.doesNotMatch(before.stdout, /HOST/, 'a one-machine team looks as it did');
    const store = storeOf(home);
    try {
      await setMemberStatus(store.roster, 'dave', 'registered', { host: 'build' });
    } finally {
      await store.close();
    }
    const text = await runCli(home, ['status']);
    assert.match(text.stdout, /^NAME\s+ROLE\s+STATUS\s+PID\s+HOST\s+SINCE/m);
    assert.match(text.stdout, /^dave\s+coder\s+registered\s+-\s+build\s/m);
    assert.match(text.stdout, /^alice\s+coder\s+registered\s+-\s+-\s/m, "'-': the lead's machine");
    const json = JSON.parse((await runCli(home, ['status', '--json'])).stdout) as { members: { name: string; host?: string }[] };
    assert.deepEqual(json.members.map((m) => [m.name, m.host ?? null]), [['lead', null], ['alice', null], ['dave', 'build']]);
  });

  test('--help and --version exit 0; no arguments without a terminal: a one-line message, exit 2', async () => {
    const help = await runCli(home, ['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: teams/);
    const version = await runCli(home, ['--version']);
    assert.equal(version.code, 0);
    assert.match(version.stdout, /^\d+\.\d+\.\d+/);
    // With no command, teams opens the REPL, which needs a terminal; the test's stdin is not one.
    const bare = await runCli(home, []);
    assert.equal(bare.code, 2);
    assert.equal(bare.stderr, 'teams: the REPL needs a terminal; use `teams run <prompt>` for scripts\n');
  });
});
