import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { killAll } from '../helpers/children.js';
import { runCli } from '../helpers/cli.js';
import { filesOf } from '../helpers/store.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { TeamSession } from './session.js';

after(killAll);

const FIRST_PROMPT = 'The code word is PELICAN. Keep it in mind.';

/**
 * The lead's first run says a word once; the run that continues it is asked for that word. The
 * offline model answers with the conversation's first user message, so only a lead that sees
 * its earlier conversation gets the word into its answer.
 */
const CODE_WORD = [
  { name: 'continued: answer from the first prompt', when: { agent: 'lead', last: 'What was the code word\\?' }, reply: { text: 'You told me first: {{first}}' } },
  { name: 'first run: one tool call', when: { agent: 'lead', turn: 1, last: 'code word is' }, reply: { text: 'Noted.', tool_uses: [{ name: 'list_teammates', input: {} }] } },
  { name: 'first run: a model call that never ends', when: { agent: 'lead', after_tool: 'list_teammates' }, reply: { text: 'Thinking it over', stall_after_deltas: 1 } },
];

type Json = Record<string, unknown>;

const sessionLine = (session: TeamSession) => waitFor(() => session.events().find((e) => e.type === 'session'), `the session line; lead stderr: ${session.lead.stderr().slice(-500)}`);

/** What the lead's turns said, in order. */
const leadSaid = (session: TeamSession) =>
  session
    .events()
    .flatMap((e) => (e.type === 'agent' && (e.event as Json).type === 'turn_end' ? [String((e.event as Json).text)] : []))
    .join('\n');

/** A lead killed with SIGKILL in the middle of a model call, after its prompt, a tool call and its result were journaled. */
async function leadKilledMidTurn(): Promise<{ first: TeamSession; id: string; journaled: string[] }> {
  const first = await TeamSession.start({ prompt: FIRST_PROMPT, extraRules: CODE_WORD });
  const line = await sessionLine(first);
  assert.equal(line.resumed, false);
  const id = String(line.id);
  await waitFor(async () => (await first.store.sessions.read(id, 'lead')).entries.length >= 3, 'the prompt, the reply and the tool result to be journaled');
  process.kill(first.lead.pid, 'SIGKILL');
  assert.equal((await first.exited()).signal, 'SIGKILL');
  // What the killed lead had journaled: every one of these, and nothing else, comes back.
  const journaled = (await first.store.sessions.read(id, 'lead')).entries.map((entry) => entry.record.type);
  return { first, id, journaled };
}

describe('sessions, end to end', () => {
  test('a lead killed mid-turn: `teams run --continue` gives its model the whole earlier conversation; `teams sessions` lists it', async (t) => {
    const { first, id, journaled } = await leadKilledMidTurn();
    t.after(() => first.cleanup());
    const second = await TeamSession.start({ home: first.home, prompt: 'What was the code word?', extraArgs: ['--continue'], extraRules: CODE_WORD });
    assert.equal((await second.exited()).code, 0, second.lead.stderr());
    assert.deepEqual(await sessionLine(second), { type: 'session', id, resumed: true, earlier_records: journaled.length, problems: [] }, `journaled: ${journaled.join(', ')}`);
    assert.match(leadSaid(second), /You told me first: The code word is PELICAN/);

    const listed = await second.cli(['sessions', '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    const { team, sessions } = JSON.parse(listed.stdout) as { team: string; sessions: Json[] };
    assert.equal(team, 'default');
    assert.equal(sessions.length, 1);
    const [only] = sessions;
    assert.deepEqual({ id: only?.id, agents: only?.agents, first_prompt: only?.first_prompt }, { id, agents: ['lead'], first_prompt: FIRST_PROMPT });
    // The first run's 3, then the second's prompt (with the result the killed tool call never had) and its answer.
    assert.ok(Number(only?.records) >= 5, `records: ${String(only?.records)}`);
    assert.ok(Date.parse(String(only?.last_active)) > Date.parse(String(only?.started_at)));
    // What both runs' model calls used, by model, as the journal records them; the offline model costs nothing.
    assert.deepEqual(Object.keys(only?.tokens_by_model as Json), ['offline-demo']);
    assert.ok(Number(only?.tokens) > 0, `tokens: ${String(only?.tokens)}`);
    assert.equal(only?.cost_usd, 0);
    const human = await second.cli(['sessions']);
    assert.match(human.stdout, new RegExp(`^${id}  started .* records  ${String(only?.tokens)} tokens  \\$0\\.0000  agents lead\\n    "${FIRST_PROMPT}"$`, 'm'));
  });

  test('a torn and a corrupt journal line are set aside and reported; the session still resumes', async (t) => {
    const { first, id, journaled } = await leadKilledMidTurn();
    t.after(() => first.cleanup());
    const journal = join(filesOf(first.paths).sessions, id, 'lead.jsonl');
    // A line that is JSON but not a record, then one torn as a SIGKILL mid-append would leave it.
    const corrupt = `${journal} line ${readFileSync(journal, 'utf8').split('\n').length + 1}`;
    appendFileSync(journal, '\n{"at":"yesterday","record":{"type":"user"}}\n\n{"at":"2026-01-01T00:00:00.000Z","record":{"type":"assis');
    const second = await TeamSession.start({ home: first.home, prompt: 'What was the code word?', extraArgs: ['--continue'], extraRules: CODE_WORD });
    assert.equal((await second.exited()).code, 0, second.lead.stderr());
    assert.match(leadSaid(second), /You told me first: The code word is PELICAN/);
    const line = await sessionLine(second);
    assert.equal(line.earlier_records, journaled.length, `journaled: ${journaled.join(', ')}`);
    const refs = (line.problems as { ref: string }[]).map((p) => p.ref);
    assert.deepEqual(refs, [corrupt, `${journal} last line`]);
    assert.match(second.lead.stderr(), new RegExp(`set aside ${corrupt}: .*at`));
    const problems = (await second.audit()).filter((e) => e.event === 'problem' && e.what.startsWith('set aside'));
    assert.deepEqual(problems.map((e) => e.event === 'problem' && e.what), [`set aside ${corrupt}`, `set aside ${journal} last line`]);
    // The next appends did not glue onto the torn line: it is one bad line, and what follows reads.
    const after = await second.store.sessions.read(id, 'lead');
    assert.equal(after.problems.length, 2);
    assert.match(JSON.stringify(after.entries.at(-1)?.record), /You told me first/);
  });

  test('a teammate killed and respawned goes on with its conversation, told which requests were cancelled', async (t) => {
    const RESPAWN = [
      // The lead waits in a model call that never ends, so the run stays up for the respawn.
      { name: 'lead: hold on after the failure', when: { agent: 'lead', last: '<status>failed</status>' }, reply: { text: 'Waiting for the human to say what comes next', stall_after_deltas: 1 } },
      {
        name: 'alice: respawned',
        when: { agent: 'alice', last: 'Your process ended \\(it crashed or was shut down\\)[\\s\\S]*will get no answer: (?<ids>[^.]+)\\.' },
        reply: { text: 'Back at turn {{turn}}. First: {{first}} Cancelled: {{last.ids}}' },
      },
    ];
    const session = await TeamSession.start({ extraRules: RESPAWN });
    t.after(() => session.cleanup());
    const id = String((await sessionLine(session)).id);
    const plan = await session.pending('plan');
    const alice = await session.memberStatus('alice', 'awaiting_approval');
    const running = await session.cli(['respawn', 'alice']);
    assert.equal(running.code, 2);
    assert.match(running.stderr, /alice is running: only a teammate that crashed or was shut down can be respawned/);

    process.kill(alice.pid ?? 0, 'SIGKILL');
    await session.memberStatus('alice', 'crashed');
    await waitFor(async () => (await session.requests()).find((r) => r.request_id === plan.request_id && r.state === 'cancelled'), 'the plan request to be cancelled');
    const respawned = await session.cli(['respawn', 'alice']);
    assert.equal(respawned.code, 0, `${respawned.stderr}; lead: ${session.lead.stdout().slice(-3000)}`);
    assert.match(respawned.stdout, new RegExp(`^respawned alice \\(pid \\d+, plan mode\\) with its conversation; told its cancelled requests: ${plan.request_id}\\n$`));

    const reply = await waitFor(async () => {
      const entries = (await session.store.sessions.read(id, 'alice')).entries;
      return entries.map((e) => JSON.stringify(e.record)).find((r) => r.includes('Back at turn'));
    }, 'the respawned alice to answer');
    assert.match(reply, /Back at turn [2-9]\./, 'its earlier turns are in its conversation');
    // Its spawn task is board task 1.
    assert.match(reply, /First: \[task_assignment 1 from lead\] New task .*Write a short note about our build cache/);
    assert.match(reply, new RegExp(`Cancelled: ${plan.request_id}`));
    // Its own task came back to it under the same id: no new task was made for the respawn.
    const board = await session.store.tasks.list();
    assert.deepEqual(board.map((task) => [task.id, task.status, task.owner]), [['1', 'in_progress', 'alice']]);
    process.kill(session.lead.pid, 'SIGTERM');
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
  });

  test('respawn refuses an unknown name, the lead, and a member with no journal', async (t) => {
    const session = await TeamSession.start();
    t.after(() => session.cleanup());
    await session.memberStatus('alice', 'awaiting_approval');
    const added = await session.cli(['member', 'add', 'bob', '--role', 'reviewer']);
    assert.equal(added.code, 0, added.stderr);
    const cases: [string, RegExp][] = [
      ['zed', /no teammate 'zed' in team 'default'/],
      ['alcie', /did you mean 'alice'\?/],
      ['lead', /'lead' is the lead itself: resume its session with --continue or --resume <id>/],
      ['bob', /bob has no conversation journaled in session session-[0-9a-z]{10}: spawn it afresh/],
      ['Bad!', /agent name 'Bad!'/],
    ];
    for (const [name, pattern] of cases) {
      const result = await session.cli(['respawn', name]);
      assert.equal(result.code, 2, `${name}: ${result.stderr}`);
      assert.match(result.stderr, pattern, name);
    }
    process.kill(session.lead.pid, 'SIGTERM');
    await session.exited();
  });

  test('--continue and --resume refuse what they cannot find, saying where ids are listed', async (t) => {
    const { home, cleanup } = tempHome('teams-e2e-');
    t.after(cleanup);
    const cases: [string[], RegExp][] = [
      [['--continue'], /team 'default' has no earlier session of the lead to continue; start one with `teams` or `teams run <prompt>`/],
      [['--resume', 'session-zzzzzzzzzz'], /no session 'session-zzzzzzzzzz' in team 'default'; `teams sessions` lists the sessions of team 'default'/],
      [['--resume', '../../etc'], /no session '..\/..\/etc' in team 'default'; `teams sessions` lists/],
      [['--continue', '--resume', 'session-zzzzzzzzzz'], /--continue and --resume <id> both pick a session: give one of them/],
      // Claude Code's short flags.
      [['-c'], /team 'default' has no earlier session of the lead to continue/],
      [['-r', 'session-zzzzzzzzzz'], /no session 'session-zzzzzzzzzz' in team 'default'/],
    ];
    for (const [flags, pattern] of cases) {
      const result = await runCli(home, ['run', '--offline', ...flags, 'hello']);
      assert.equal(result.code, 2, `${flags.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, pattern, flags.join(' '));
    }
    const none = await runCli(home, ['sessions']);
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stdout, /^no sessions in team 'default' yet/);
    assert.deepEqual(JSON.parse((await runCli(home, ['sessions', '--json'])).stdout), { team: 'default', sessions: [] });
  });
});
