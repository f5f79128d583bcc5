import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { settingsPath } from '../../src/lead/project-settings.js';
import { MAX_HOOK_REFUSALS } from '../../src/lead/state.js';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { TeamSession, taskNotifications } from './session.js';
import { replies } from './worker.js';

after(killAll);

/** `worker` waits for the user, answers a hook's "run the tests first", and writes a file (asking first) when told to. */
const rules = [
  { name: 'worker obeys the hook', when: { agent: 'worker', last: 'run the tests first' }, reply: { text: 'Running the tests now: all pass.' } },
  { name: 'worker writes a file', when: { agent: 'worker', last: 'From the user: write the file' }, reply: { text: 'Writing it.', tool_uses: [{ name: 'write_file', input: { path: 'asked.md', content: 'x\n' } }] } },
  { name: 'worker waits for the user', when: { agent: 'worker' }, reply: { text: 'Ready when you are.' } },
];

type AgentJson = { type: string; event?: { type: string; text?: string } };
const leadSaid = (e: { type: string }, text: string) => e.type === 'agent' && (e as AgentJson).event?.type === 'turn_end' && (e as AgentJson).event?.text === text;

describe('hooks, end to end', () => {
  test("a teammate_idle hook sends a teammate back to work once; a permission hook gets the event; a broken hook is reported and the team goes on", async (t) => {
    const prepared = TeamSession.prepare({ extraRules: rules });
    writeFileSync(
      settingsPath(prepared.home),
      JSON.stringify({
        hooks: {
          teammate_idle: [{ command: 'test -f hook-marker || { touch hook-marker; echo "run the tests first" >&2; exit 2; }', write: true }],
          permission_requested: [{ command: 'cat >> permission-events.jsonl', write: true }],
          plan_submitted: [{ command: 'echo "the plan hook broke" >&2; exit 7', timeout: 5 }],
        },
      }),
    );
    const session = await prepared.start();
    t.after(() => session.cleanup());

    // The demo's alice submits her plan: its hook fails, which is reported, and the plan still waits for the human.
    const plan = await session.pending('plan');
    await waitFor(
      () => session.events().some((e) => e.type === 'problem' && /hook on plan_submitted `echo "the plan hook broke" >&2; exit 7`: exited 7: the plan hook broke/.test(String(e.text))),
      'the failing plan hook to be reported',
    );

    const spawned = await session.cli(['spawn', 'worker', '--role', 'helper', '--prompt', 'Wait for the user']);
    assert.equal(spawned.code, 0, spawned.stderr);
    // Its first stop is refused with the hook's stderr; its model works on it; the second stop passes.
    await waitFor(() => replies(session, 'worker').length >= 2, "worker's second turn", 20_000).catch((error: Error) =>
      assert.fail(`${error.message}; its replies: ${JSON.stringify(replies(session, 'worker'))}`),
    );
    assert.deepEqual(replies(session, 'worker'), ['Ready when you are.', 'Running the tests now: all pass.']);
    assert.ok(existsSync(join(session.workdir, 'hook-marker')), 'the hook ran in the working directory');
    await waitFor(async () => {
      const outcomes = (await session.audit()).flatMap((e) => (e.event === 'hook' && e.hook_event === 'teammate_idle' && e.agent === 'worker' ? [e.outcome] : []));
      return outcomes.join(' ') === 'blocked ok';
    }, 'the idle hook audited: blocked, then ok');
    const audit = await session.audit();
    const feedback = audit.find((e) => e.event === 'message' && e.type === 'hook_feedback');
    assert.ok(feedback?.event === 'message' && feedback.from === 'lead' && feedback.to === 'worker', JSON.stringify(feedback));
    const blocked = audit.find((e) => e.event === 'hook' && e.outcome === 'blocked');
    assert.equal(blocked?.event === 'hook' && blocked.stderr, 'run the tests first\n');
    // The lead's model hears of the stop that was let through, and only of that one.
    await waitFor(() => session.events().some((e) => leadSaid(e, 'worker is idle.')), "the lead's model to hear worker is idle");

    // A permission request: its hook gets the event as JSON on stdin.
    assert.equal((await session.cli(['send', 'worker', 'write the file', '--from', 'user'])).code, 0);
    const asked = await session.pending('permission');
    const eventsFile = join(session.workdir, 'permission-events.jsonl');
    await waitFor(() => existsSync(eventsFile) && readFileSync(eventsFile, 'utf8').endsWith('\n'), 'the permission hook to write the event');
    const got = JSON.parse(readFileSync(eventsFile, 'utf8').trim().split('\n')[0] ?? '') as Record<string, unknown>;
    assert.equal(got.event, 'permission_requested');
    assert.equal(got.team, 'default');
    assert.equal(got.teammate, 'worker');
    assert.equal(got.request_id, asked.request_id);
    assert.equal(got.tool_name, 'write_file');

    // People read the hooks' runs in the audit log.
    const log = await session.cli(['log']);
    assert.match(log.stdout, /hook\s+teammate_idle \(worker\) `test -f hook-marker[^`]*` blocked: run the tests first/);
    assert.match(log.stdout, /hook\s+teammate_idle \(worker\) `test -f hook-marker[^`]*` ok/);
    assert.match(log.stdout, /hook\s+plan_submitted \(alice\) `echo "the plan hook broke" >&2; exit 7` failed: exited 7: the plan hook broke/);

    // The team went on past the broken hook: the plan is still the human's to approve.
    assert.equal((await session.requests()).find((r) => r.request_id === plan.request_id)?.state, 'pending');
    assert.equal(session.events().filter((e) => leadSaid(e, 'worker is idle.')).length, 1);
    process.kill(session.lead.pid, 'SIGTERM');
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
  });

  test('a task_completed hook blocks a completion once: the task stays in progress, its owner is told why and reports again; task_created hooks see every new task', async (t) => {
    const prepared = TeamSession.prepare({ prompt: 'Use the task board: notes about our build cache' });
    const check = 'test -f completion-checked || { touch completion-checked; echo "notes.md: 1 broken link" >&2; exit 2; }';
    writeFileSync(settingsPath(prepared.home), JSON.stringify({ hooks: { task_completed: [{ command: check, write: true }], task_created: [{ command: 'cat >> created.jsonl', write: true }] } }));
    const session = await prepared.start();
    t.after(() => session.cleanup());

    const boardTasks = async () => (await session.store.tasks.list()).filter((task) => /notes\.md$/.test(task.subject));
    await waitFor(async () => (await boardTasks()).filter((task) => task.status === 'completed').length === 2, `both board tasks completed; lead stderr: ${session.lead.stderr().slice(-500)}`, 60_000);
    const outcomes = (await session.audit()).flatMap((e) => (e.event === 'hook' && e.hook_event === 'task_completed' ? [e.outcome] : []));
    assert.deepEqual(outcomes, ['blocked', 'ok', 'ok']);

    // The first completion reported (task 1: task 2 waits on it) was refused; its owner was sent the hook's stderr and reported again.
    const [one, two] = await boardTasks();
    assert.equal(one?.result, `${one?.owner} finished task 1, after the project's check.`);
    assert.equal(two?.result, `${two?.owner} finished task 2.`);
    const audit = await session.audit();
    const feedback = audit.filter((e) => e.event === 'message' && e.type === 'hook_feedback');
    assert.equal(feedback.length, 1);
    assert.ok(feedback[0]?.event === 'message' && feedback[0].to === one?.owner && feedback[0].from === 'lead', JSON.stringify(feedback));
    assert.ok(session.events().some((e) => e.type === 'notice' && String(e.text).startsWith(`task 1 stays in progress: a task_completed hook refused ${one?.owner}'s completion`)));
    // The lead's side hears each completion once: the refused report is not passed on as one.
    // (Heard once the board has recorded it, so the notification of the last may still be on its way.)
    const completions = () => taskNotifications(session).flatMap((n) => (n.status === 'completed' && (n.task_id === '1' || n.task_id === '2') ? [n.task_id] : []));
    await waitFor(() => completions().length >= 2, 'the lead to hear both completions');
    assert.deepEqual(completions().sort(), ['1', '2']);

    // Every task the lead saw appear on the board went through the task_created hook: the two of the job and the two spawn tasks.
    const created = readFileSync(join(session.workdir, 'created.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { event: string; task: { id: string } });
    assert.deepEqual(created.map((c) => [c.event, c.task.id]).sort(), [['task_created', '1'], ['task_created', '2'], ['task_created', '3'], ['task_created', '4']]);
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
  });

  test(`a task_completed hook that always refuses: no completion is recorded, however often it is reported; after ${MAX_HOOK_REFUSALS} refusals the reports are dropped and the run ends`, async (t) => {
    const prepared = TeamSession.prepare({ prompt: 'Use the task board: notes about our build cache' });
    writeFileSync(settingsPath(prepared.home), JSON.stringify({ hooks: { task_completed: [{ command: 'echo "never done" >&2; exit 2' }] } }));
    const session = await prepared.start();
    t.after(() => session.cleanup());
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    const outcomes = (await session.audit()).flatMap((e) => (e.event === 'hook' && e.hook_event === 'task_completed' ? [e.outcome] : []));
    assert.deepEqual(outcomes, Array<string>(MAX_HOOK_REFUSALS).fill('blocked'));
    const board = await session.store.tasks.list();
    assert.deepEqual(board.filter((task) => task.status === 'completed').map((task) => task.id), [], 'nothing completed past the hook');
    assert.ok(session.events().some((e) => e.type === 'problem' && new RegExp(`refused \\w+'s completion of task 1 ${MAX_HOOK_REFUSALS} times in a row`).test(String(e.text))));
    assert.ok(session.events().some((e) => e.type === 'notice' && /completed again, after 5 refusals in a row: dropped unchecked/.test(String(e.text))));
    assert.equal(taskNotifications(session).filter((n) => n.status === 'completed').length, 0, "the lead's model heard of no completion");
  });
});
