import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, startCli } from '../helpers/cli.js';
import { tempHome } from '../helpers/temp.js';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { teamPaths } from '../../src/team/paths.js';
import { resolveModelSettings } from '../../src/model/settings.js';
import { LeadRuntime } from '../../src/lead/lead.js';
import { openFileStore } from '../../src/store/file/file-store.js';
import { mkdirSync } from 'node:fs';

after(killAll);

type Line = { id: string; type: string; from: string; to: string; text?: string };
const lines = (text: string): Line[] => text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);

describe('without a running lead', () => {
  const { home, cleanup } = tempHome();
  after(cleanup);

  test('send is refused: only the running lead signs the human\'s messages, and nothing is written', async () => {
    assert.equal((await runCli(home, ['member', 'add', 'alice', '--role', 'coder'])).code, 0);
    const result = await runCli(home, ['send', 'alice', 'hello']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /no lead is running for team 'default': sending a message needs one/);
    assert.deepEqual(lines((await runCli(home, ['inbox', 'alice', '--jsonl'])).stdout), []);
  });

  test("the user's own message and an interrupt need the running lead too, which alone signs them", async () => {
    const told = await runCli(home, ['send', 'alice', 'hello', '--from', 'user']);
    assert.equal(told.code, 2);
    assert.match(told.stderr, /no lead is running for team 'default': sending a message from the user needs one/);
    const interrupted = await runCli(home, ['interrupt', 'alice']);
    assert.equal(interrupted.code, 2);
    assert.match(interrupted.stderr, /no lead is running for team 'default': interrupting a teammate needs one/);
    assert.deepEqual(lines((await runCli(home, ['inbox', 'alice', '--jsonl'])).stdout), []);
  });
});

describe('teams send / broadcast / inbox / log', () => {
  const { home, cleanup } = tempHome();
  const paths = teamPaths(home, 'default');
  const store = openFileStore(paths);
  // The human's messages go through the running lead, which signs them; this one runs idle here.
  // The agents work in the team's scratch workspace: never in the state root itself.
  const workspace = () => {
    mkdirSync(paths.workspace, { recursive: true });
    return paths.workspace;
  };
  let lead: LeadRuntime | undefined;
  after(async () => {
    await lead?.stop();
    cleanup();
  });
  before(async () => {
    for (const [name, role] of [['alice', 'coder'], ['bob', 'tester']]) {
      assert.equal((await runCli(home, ['member', 'add', name!, '--role', role!])).code, 0);
    }
    lead = await LeadRuntime.start({ store, paths, settings: resolveModelSettings({ offline: true }, {}), cwd: workspace(), permissionMode: 'default', planReviewer: 'human' });
  });

  test('send delivers to the inbox, which peeks without consuming', async () => {
    const sent = await runCli(home, ['send', 'alice', 'please look at src/x.ts']);
    assert.equal(sent.code, 0, sent.stderr);
    for (let i = 0; i < 2; i++) {
      const inbox = await runCli(home, ['inbox', 'alice', '--jsonl']);
      assert.equal(inbox.code, 0, inbox.stderr);
      const messages = lines(inbox.stdout);
      assert.equal(messages.length, 1);
      assert.deepEqual([messages[0]!.type, messages[0]!.from, messages[0]!.text], ['message', 'lead', 'please look at src/x.ts']);
    }
    const text = await runCli(home, ['inbox', 'alice']);
    assert.match(text.stdout, /lead → alice \[message\] please look at src\/x\.ts/);
  });

  test('a misspelt recipient is refused, names the likely member, and writes nothing', async () => {
    const auditBefore = await store.audit.read();
    const result = await runCli(home, ['send', 'alcie', 'hello']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /unknown recipient 'alcie'.*did you mean 'alice'/);
    assert.deepEqual(await store.audit.read(), auditBefore);
    assert.equal(lines((await runCli(home, ['inbox', 'alice', '--jsonl'])).stdout).length, 1);
  });

  test('other send errors: unknown sender, yourself, missing text, unknown inbox', async () => {
    const cases: [string[], RegExp][] = [
      [['send', 'alice', 'hi', '--from', 'mallory'], /mallory/],
      [['send', 'alice', 'hi', '--from', 'bob'], /only the lead's messages \(or, to one teammate, --from user\) can be sent from here; bob sends its own/],
      [['send', 'lead', 'hi'], /cannot send a message to itself/],
      [['send', 'alice'], /missing required argument 'text'/],
      [['send', '../x', 'hi'], /may not contain/],
      [['inbox', 'carol'], /unknown agent 'carol'/],
      [['broadcast'], /missing required argument 'text'/],
      // The user's words go to one running teammate; the lead hears them at its own prompt.
      [['send', 'lead', 'hi', '--from', 'user'], /the lead hears the user at its own prompt/],
      [['send', '*', 'hi', '--from', 'user'], /--from user goes to one teammate/],
      [['send', 'alice', 'hi', '--from', 'user'], /teams: alice is not running$/m],
      [['send', 'alcie', 'hi', '--from', 'user'], /no teammate 'alcie' in team 'default'; did you mean 'alice'/],
      [['interrupt', 'alice'], /teams: alice is not running$/m],
      [['interrupt', 'zed'], /no teammate 'zed' in team 'default'/],
      [['interrupt', 'Bob!'], /agent name 'Bob!' must match/],
    ];
    for (const [args, pattern] of cases) {
      const result = await runCli(home, args);
      assert.equal(result.code, 2, `${args.join(' ')} → ${result.code} ${result.stderr}`);
      assert.match(result.stderr, pattern, args.join(' '));
    }
  });

  test('broadcast reaches every other member once, signed by the lead', async () => {
    const result = await runCli(home, ['broadcast', 'standup in 5']);
    assert.equal(result.code, 0, result.stderr);
    const toLead = lines((await runCli(home, ['inbox', 'lead', '--jsonl'])).stdout);
    const toAlice = lines((await runCli(home, ['inbox', 'alice', '--jsonl'])).stdout) as (Line & { signature?: string })[];
    const toBob = lines((await runCli(home, ['inbox', 'bob', '--jsonl'])).stdout);
    assert.equal(toLead.length, 0);
    assert.equal(toAlice.filter((m) => m.type === 'broadcast' && m.signature).length, 1);
    assert.equal(toBob.filter((m) => m.type === 'broadcast').length, 1);
  });

  test('--json is one document (a list is one array), --jsonl one object per line; a followed stream has only --jsonl', async () => {
    const whole = await runCli(home, ['inbox', 'alice', '--json']);
    assert.equal(whole.code, 0, whole.stderr);
    const array = JSON.parse(whole.stdout) as Line[];
    assert.ok(Array.isArray(array) && array.length > 0);
    assert.deepEqual(array, lines((await runCli(home, ['inbox', 'alice', '--jsonl'])).stdout));
    assert.deepEqual(JSON.parse((await runCli(home, ['audit', '--json'])).stdout), lines((await runCli(home, ['audit', '--jsonl'])).stdout));
    assert.deepEqual(JSON.parse((await runCli(home, ['requests', '--json'])).stdout), []);
    for (const [args, pattern] of [
      [['inbox', 'alice', '--json', '--follow'], /--follow never ends, so it has no one JSON document: use --jsonl/],
      [['audit', '--json', '--jsonl'], /--json or --jsonl: choose one/],
    ] as const) {
      const refused = await runCli(home, [...args]);
      assert.equal(refused.code, 2, args.join(' '));
      assert.match(refused.stderr, pattern);
    }
  });

  test('inbox --follow prints a message sent after it started, and exits 0 on SIGINT', async () => {
    const follower = startCli(home, ['inbox', 'bob', '--jsonl', '--follow']);
    // Sent while the follower may still be starting: its first peek or its watcher must catch it.
    assert.equal((await runCli(home, ['send', 'bob', 'ping'])).code, 0);
    await waitFor(() => follower.stdout().includes('ping'), 'the follower to print the message');
    follower.process.kill('SIGINT');
    const exit = await follower.exited;
    assert.equal(exit.code, 0, follower.stderr());
    assert.equal(lines(follower.stdout()).filter((m) => m.text === 'ping').length, 1);
  });

  test('log shows every message, filters by agent, and follows', async () => {
    const all = lines((await runCli(home, ['log', '--jsonl'])).stdout) as unknown as { event: string; from?: string; to?: string }[];
    assert.ok(all.some((e) => e.event === 'member'));
    // The message to alice, the broadcast and the ping to bob; the misspelt one was never written.
    assert.equal(all.filter((e) => e.event === 'message').length, 3);
    const bobs = lines((await runCli(home, ['log', '--jsonl', '--agent', 'bob'])).stdout) as unknown as { event: string; from?: string; to?: string }[];
    assert.ok(bobs.length > 0);
    assert.ok(bobs.every((e) => e.event !== 'message' || e.from === 'bob' || e.to === 'bob' || e.to === '*'));
    const text = await runCli(home, ['log']);
    assert.match(text.stdout, /message\s+lead → alice \[message\]/);

    const follower = startCli(home, ['log', '--follow', '--agent', 'alice']);
    await waitFor(() => follower.stdout().includes('please look'), 'the existing entries');
    assert.equal((await runCli(home, ['send', 'alice', 'second note'])).code, 0);
    await waitFor(() => follower.stdout().includes('second note'), 'the followed entry');
    follower.process.kill('SIGINT');
    assert.equal((await follower.exited).code, 0);
  });
});
