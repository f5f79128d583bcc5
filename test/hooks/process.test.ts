import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventStream } from '../../src/lib/event-stream.js';
import { HOOK_OUTPUT_BYTES, runHookProcess } from '../../src/hooks/process.js';
import { LeadHooks } from '../../src/lead/hooks.js';
import { LeadStepper } from '../../src/lead/stepper.js';
import { initialLeadState, MAX_HOOK_REFUSALS } from '../../src/lead/state.js';
import type { LeadEvent } from '../../src/lead/events.js';
import { settingsPath } from '../../src/lead/project-settings.js';
import type { Draft, Envelope, EnvelopeOf } from '../../src/protocol/messages.js';
import type { LeadInput } from '../../src/lead/state.js';
import { killAll } from '../helpers/children.js';
import { storeOf } from '../helpers/store.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { processesWith, sleepMarker } from '../e2e/hostile.js';
import { launcherFor } from '../../src/sandbox/launcher.js';
import { READ_ONLY_GRANT } from '../../src/policy/grant.js';

after(killAll);

/** Hooks run in the real sandbox, as the lead runs them; the grant comes from each hook's entry. */
const sandbox = launcherFor({ kind: 'bwrap', network: 'on', bwrap: 'bwrap' }, () => ({ writable: true, hidden: [] }));
const WRITE = { write: true, network: false };
const inSandbox = { launch: sandbox, grant: READ_ONLY_GRANT };

describe('a hook as a real shell command', () => {
  test('it gets the event on stdin, runs in the given directory, and its output is captured', async (t) => {
    const { home: dir, cleanup } = tempHome();
    t.after(cleanup);
    const run = await runHookProcess('cat > got.json; pwd; echo oops >&2; exit 3', { cwd: dir, input: '{"event":"x"}\n', timeoutS: 10, launch: sandbox, grant: WRITE });
    assert.deepEqual(run.exit, { kind: 'exited', code: 3, signal: null });
    assert.equal(readFileSync(join(dir, 'got.json'), 'utf8'), '{"event":"x"}\n');
    assert.equal(run.stdout, `${dir}\n`);
    assert.equal(run.stderr, 'oops\n');
  });

  test('a hook that ignores its stdin is fine; its long output is capped, head and tail kept', async (t) => {
    const { home: dir, cleanup } = tempHome();
    t.after(cleanup);
    const run = await runHookProcess(`head -c ${HOOK_OUTPUT_BYTES * 4} /dev/zero | tr '\\0' x; echo END`, { cwd: dir, input: 'x'.repeat(1 << 20), timeoutS: 10, ...inSandbox });
    assert.deepEqual(run.exit, { kind: 'exited', code: 0, signal: null });
    assert.ok(run.stdout.length < HOOK_OUTPUT_BYTES + 200, `${run.stdout.length} characters kept`);
    assert.match(run.stdout, /bytes cut from the middle of this output/);
    assert.match(run.stdout, /xEND\n$/);
  });

  test('on timeout its whole process group is killed, and whatever it left running when it exited too', async (t) => {
    const marker = sleepMarker();
    t.after(() => {
      for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
    });
    const timedOut = await runHookProcess(`sleep ${marker} & sleep ${marker}`, { cwd: '/', input: '', timeoutS: 0.5, ...inSandbox });
    assert.deepEqual(timedOut.exit, { kind: 'timed_out', afterS: 0.5 });
    await waitFor(() => processesWith(marker).length === 0, `the hook's processes to be gone (left: ${processesWith(marker).join(' ')})`, 5_000);

    const leftBehind = await runHookProcess(`sleep ${marker} > /dev/null 2>&1 & echo started`, { cwd: '/', input: '', timeoutS: 30, ...inSandbox });
    assert.deepEqual(leftBehind.exit, { kind: 'exited', code: 0, signal: null });
    assert.equal(leftBehind.stdout, 'started\n');
    await waitFor(() => processesWith(marker).length === 0, `the background sleep to be gone (left: ${processesWith(marker).join(' ')})`, 5_000);
  });

  test('a hook that exits 0 leaving a setsid child holding its output open: its exit stands (not a timeout), with the output so far', async (t) => {
    const marker = sleepMarker();
    t.after(() => {
      for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
    });
    const run = await runHookProcess(`setsid sleep ${marker} & echo started; exit 0`, { cwd: '/', input: '', timeoutS: 20, ...inSandbox });
    assert.deepEqual(run.exit, { kind: 'exited', code: 0, signal: null });
    assert.equal(run.stdout, 'started\n');
  });

  test('cancelled (the lead stops): its group is killed at once', async (t) => {
    const marker = sleepMarker();
    t.after(() => {
      for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
    });
    const stop = new AbortController();
    const running = runHookProcess(`echo up; sleep ${marker}`, { cwd: '/', input: '', timeoutS: 600, signal: stop.signal, ...inSandbox });
    await waitFor(() => processesWith(`sleep ${marker}`).length > 0, 'the hook to be running');
    stop.abort();
    assert.deepEqual((await running).exit, { kind: 'cancelled' });
    await waitFor(() => processesWith(marker).length === 0, `the hook's processes to be gone (left: ${processesWith(marker).join(' ')})`, 5_000);
  });

  test('in the sandbox: read-only and offline unless its entry grants write or network', async (t) => {
    const { home: dir, cleanup } = tempHome();
    t.after(cleanup);
    const unasked = await runHookProcess('echo pwned > from-hook; echo rc=$?', { cwd: dir, input: '', timeoutS: 10, ...inSandbox });
    assert.match(unasked.stdout + unasked.stderr, /Read-only file system/);
    assert.throws(() => readFileSync(join(dir, 'from-hook')), /ENOENT/);
    const granted = await runHookProcess('echo made > from-hook', { cwd: dir, input: '', timeoutS: 10, launch: sandbox, grant: WRITE });
    assert.deepEqual(granted.exit, { kind: 'exited', code: 0, signal: null });
    assert.equal(readFileSync(join(dir, 'from-hook'), 'utf8'), 'made\n');
    // Its own network namespace: nothing but a loopback of its own.
    const offline = await runHookProcess('cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d " "', { cwd: dir, input: '', timeoutS: 10, ...inSandbox });
    assert.equal(offline.stdout.trim(), 'lo');
  });

  test('a directory that does not exist: it could not start, and says why', async () => {
    const run = await runHookProcess('true', { cwd: '/nonexistent/hook/dir', input: '', timeoutS: 5, ...inSandbox });
    assert.equal(run.exit.kind, 'spawn_failed');
    assert.match(run.exit.kind === 'spawn_failed' ? run.exit.error : '', /ENOENT/);
  });
});

describe("the lead's hooks: the settings, the audit log, problems and feedback", () => {
  const setUp = async (hooks: unknown) => {
    const { home, cleanup } = tempHome();
    writeFileSync(settingsPath(home), JSON.stringify({ hooks }));
    const store = storeOf(home);
    await store.roster.ensure();
    const events = new EventStream<LeadEvent>();
    const problems: string[] = [];
    events.subscribe((event) => {
      if (event.type === 'problem') problems.push(event.text);
    });
    const sent: Draft[] = [];
    // The lead's step with the real hooks as its executor; the rest of the lead is what this records.
    const stepper = new LeadStepper(initialLeadState('human'));
    const step = (input: LeadInput) => stepper.step(input);
    const hooks_ = new LeadHooks({ home, team: 'default', cwd: home, launch: sandbox, store, step });
    /** Each message the lead takes in, as the human sees it: an idle notification that leaves its sender working was kept from the lead's model. */
    const seen: string[] = [];
    stepper.runEffectsWith((effect) => {
      if (effect.type === 'emit') {
        const event = effect.event;
        if (event.type === 'message') seen.push(event.envelope.type === 'idle_notification' && !stepper.state.idle.has(event.envelope.from) ? `working ${event.envelope.from}` : `route ${event.envelope.id}`);
        events.emit(event);
      }
      if (effect.type === 'problem') events.emit({ type: 'problem', text: `${effect.what}: ${effect.reason}` });
      if (effect.type === 'send') sent.push(effect.draft);
      if (effect.type === 'check_idle') hooks_.checkIdle(effect.envelope, effect.seen);
      if (effect.type === 'check_completion') hooks_.checkCompletion(effect.envelope, effect.seen);
    });
    /** A message reaching the lead, as the lead takes it in. */
    const receive = (envelope: Envelope) => void step({ type: 'received', envelope, idleHooks: envelope.type === 'idle_notification' && hooks_.hooksFor('teammate_idle').length > 0 });
    /** Whether a completion report is still being checked. */
    const busy = () => stepper.state.checking.size > 0;
    return { home, store, events, hooks: hooks_, problems, sent, seen, receive, busy, step, stepper, cleanup: async () => (await store.close(), cleanup()) };
  };

  test('hooks run in order with the event on stdin; the first that blocks ends the run, and its stderr is the feedback', async (t) => {
    const s = await setUp({
      teammate_idle: [
        { command: 'cat >> seen.jsonl; echo first', write: true },
        { command: 'echo "run the tests first" >&2; exit 2' },
        { command: 'touch never-ran', write: true },
      ],
    });
    t.after(s.cleanup);
    const verdict = await s.hooks.run('teammate_idle', { teammate: 'alice', reason: 'done' }, 'alice');
    assert.deepEqual(verdict, { blocked: true, command: 'echo "run the tests first" >&2; exit 2', feedback: 'run the tests first' });
    assert.deepEqual(JSON.parse(readFileSync(join(s.home, 'seen.jsonl'), 'utf8')), { event: 'teammate_idle', team: 'default', cwd: s.home, teammate: 'alice', reason: 'done' });
    assert.throws(() => readFileSync(join(s.home, 'never-ran')));
    const entries = (await s.store.audit.read()).entries.filter((e) => e.event === 'hook');
    assert.deepEqual(
      entries.map((e) => e.event === 'hook' && [e.hook_event, e.agent, e.outcome, e.exit_code, e.stdout, e.stderr]),
      [
        ['teammate_idle', 'alice', 'ok', 0, 'first\n', ''],
        ['teammate_idle', 'alice', 'blocked', 2, '', 'run the tests first\n'],
      ],
    );
    assert.deepEqual(s.problems, []);

    const idle = { type: 'idle_notification', id: 'i1', from: 'alice', to: 'lead', timestamp: new Date().toISOString(), reason: 'done' } as EnvelopeOf<'idle_notification'>;
    await s.step({ type: 'idle_checked', envelope: idle, seen: 0, verdict });
    assert.deepEqual(s.sent, [{ type: 'hook_feedback', from: 'lead', to: 'alice', event: 'teammate_idle', command: 'echo "run the tests first" >&2; exit 2', feedback: 'run the tests first' }]);
  });

  test("the board's completion path: a blocking task_completed hook keeps the task, and its owner is told why", async (t) => {
    const s = await setUp({ task_completed: [{ command: 'cat > task.json; echo "2 tests fail" >&2; exit 2', write: true }], task_created: [{ command: 'cat > created.json', write: true }] });
    t.after(s.cleanup);
    const task = { id: 't7', subject: 'parser', status: 'in_progress' };
    const verdict = await s.hooks.taskCompleted(task, 'bob');
    assert.equal(verdict.blocked, true);
    assert.deepEqual(JSON.parse(readFileSync(join(s.home, 'task.json'), 'utf8')), { event: 'task_completed', team: 'default', cwd: s.home, teammate: 'bob', task });
    assert.deepEqual(s.sent, [{ type: 'hook_feedback', from: 'lead', to: 'bob', event: 'task_completed', command: 'cat > task.json; echo "2 tests fail" >&2; exit 2', feedback: '2 tests fail', task_id: 't7' }]);
    s.hooks.taskCreated(task);
    await waitFor(async () => (await s.store.audit.read()).entries.some((e) => e.event === 'hook' && e.hook_event === 'task_created' && e.outcome === 'ok'), 'the task_created hook to be audited');
    assert.deepEqual(JSON.parse(readFileSync(join(s.home, 'created.json'), 'utf8')), { event: 'task_created', team: 'default', cwd: s.home, task });
  });

  test("a teammate's reported completion is recorded once the task_completed hooks pass; a blocking hook keeps the task in progress and the owner working", async (t) => {
    const s = await setUp({ task_completed: [{ command: 'cat >> completions.jsonl; test -f passed || { touch passed; echo "2 tests fail" >&2; exit 2; }', write: true }] });
    t.after(s.cleanup);
    const task = await s.store.tasks.create({ subject: 'parser', owner: 'bob' }, 'lead');
    assert.equal((await s.store.tasks.claim('bob', task.id)).ok, true);
    const report = (id: string, from: string) =>
      ({ type: 'task_notification', id, from, to: 'lead', timestamp: new Date().toISOString(), task_id: task.id, status: 'completed', summary: 'done', result: 'parser.ts' }) as Envelope;
    const notices: string[] = [];
    s.events.subscribe((e) => void (e.type === 'notice' && notices.push(e.text)));

    s.receive(report('m1', 'bob'));
    assert.equal(s.busy(), true, 'busy while the hook decides');
    // The same report again while it is checked: dropped, so the hook runs once for both.
    s.receive(report('m1b', 'bob'));
    await waitFor(() => !s.busy(), 'the first report to be settled');
    // Refused: not shown as bob's message, and bob counts as working.
    assert.deepEqual(s.seen, []);
    assert.equal(s.stepper.state.idle.has('bob'), false);
    assert.equal((await s.store.tasks.get(task.id))?.status, 'in_progress');
    assert.deepEqual(s.sent, [{ type: 'hook_feedback', from: 'lead', to: 'bob', event: 'task_completed', command: 'cat >> completions.jsonl; test -f passed || { touch passed; echo "2 tests fail" >&2; exit 2; }', feedback: '2 tests fail', task_id: task.id }]);
    assert.deepEqual(notices, [
      `bob reported task ${task.id} completed again while its checks run: the repeat is dropped`,
      `task ${task.id} stays in progress: a task_completed hook refused bob's completion, and told bob why`,
    ]);

    // Another teammate's report of bob's task is passed on as it came: no hook runs, the board is unchanged.
    s.receive(report('m2', 'carol'));
    await waitFor(() => s.seen.length === 1, "carol's report to be passed on");
    assert.equal((await s.store.tasks.get(task.id))?.status, 'in_progress');

    // Its idle notification overtakes the report while the hook runs: the report, routed late, must not undo it.
    s.receive(report('m3', 'bob'));
    s.receive({ type: 'idle_notification', id: 'm4', from: 'bob', to: 'lead', timestamp: new Date().toISOString(), reason: 'waiting' } as Envelope);
    await waitFor(() => s.seen.length === 3, 'the second report to be settled');
    assert.deepEqual(s.seen, ['route m2', 'route m4', 'route m3']);
    assert.equal(s.stepper.state.idle.has('bob'), true, 'bob stays idle: the late report did not undo its idle notification');
    assert.equal(s.busy(), false);
    const done = await s.store.tasks.get(task.id);
    assert.deepEqual([done?.status, done?.owner, done?.result], ['completed', 'bob', 'parser.ts']);
    // The hook saw the task as the board held it, with the result reported.
    const inputs = readFileSync(join(s.home, 'completions.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { teammate: string; task: { id: string; status: string; result: string } });
    assert.deepEqual(inputs.map((i) => [i.teammate, i.task.id, i.task.status, i.task.result]), [['bob', task.id, 'in_progress', 'parser.ts'], ['bob', task.id, 'in_progress', 'parser.ts']]);
  });

  test('an idle notification is routed once its hooks pass, unless the teammate was sent work meanwhile', async (t) => {
    const s = await setUp({ teammate_idle: [{ command: 'while [ ! -f go ]; do sleep 0.02; done; rm go', timeout: 20, write: true }] });
    t.after(s.cleanup);
    // Sent after anything the lead sends here: only the traffic meanwhile, not its time, makes it stale.
    const later = new Date(Date.now() + 60_000).toISOString();
    const idle = (id: string) => ({ type: 'idle_notification', id, from: 'alice', to: 'lead', timestamp: later, reason: 'waiting' }) as Envelope;
    const sent = (envelope: Omit<Envelope, 'id' | 'timestamp' | 'from'>) => s.step({ type: 'sent', envelope: { ...envelope, id: 'x', from: 'lead', timestamp: new Date().toISOString() } as Envelope });

    s.receive(idle('m1'));
    assert.deepEqual(s.seen, [], 'held while its hook runs');
    writeFileSync(join(s.home, 'go'), '');
    await waitFor(() => s.seen.length === 1, 'the first idle to be routed');

    s.receive(idle('m2'));
    // New rules start no turn: still idle. A message from the lead does.
    await sent({ type: 'rules_set', to: 'alice', allow: [], deny: [] } as unknown as Envelope);
    assert.equal(s.stepper.state.idle.has('alice'), true, 'rules_set starts no turn');
    await sent({ type: 'message', to: 'alice', text: 'one more thing', summary: 'more' } as unknown as Envelope);
    writeFileSync(join(s.home, 'go'), '');
    await waitFor(() => s.seen.length === 2, 'the second idle to be handled');
    assert.deepEqual(s.seen, ['route m1', 'working alice']);
  });

  test(`a hook that always refuses sends a teammate back at most ${MAX_HOOK_REFUSALS} times in a row: then its stop goes through, and a completion's further reports are dropped unchecked`, async (t) => {
    const s = await setUp({ teammate_idle: [{ command: 'echo no >&2; exit 2' }], task_completed: [{ command: 'echo >> ran; echo never >&2; exit 2', write: true }] });
    t.after(s.cleanup);
    const at = new Date().toISOString();
    const notices: string[] = [];
    s.events.subscribe((e) => void (e.type === 'notice' && notices.push(e.text)));
    for (let i = 1; i <= MAX_HOOK_REFUSALS + 1; i++) {
      s.receive({ type: 'idle_notification', id: `i${i}`, from: 'alice', to: 'lead', timestamp: at, reason: 'waiting' } as Envelope);
      await waitFor(() => s.seen.length === i, `idle ${i} to be handled`);
    }
    assert.deepEqual(s.seen, [...Array<string>(MAX_HOOK_REFUSALS).fill('working alice'), `route i${MAX_HOOK_REFUSALS + 1}`]);
    assert.equal(s.sent.length, MAX_HOOK_REFUSALS);
    assert.deepEqual(s.problems, [`hook on teammate_idle \`echo no >&2; exit 2\`: it refused alice's stop ${MAX_HOOK_REFUSALS} times in a row, so this stop goes through (fix the hook, or tell alice what to do)`]);

    const task = await s.store.tasks.create({ subject: 'parser', owner: 'bob' }, 'lead');
    await s.store.tasks.claim('bob', task.id);
    const report = (id: string) => ({ type: 'task_notification', id, from: 'bob', to: 'lead', timestamp: at, task_id: task.id, status: 'completed', summary: 'done' }) as Envelope;
    for (let i = 1; i <= MAX_HOOK_REFUSALS; i++) {
      s.receive(report(`c${i}`));
      await waitFor(() => notices.length === i && !s.busy(), `report ${i} to be refused`);
    }
    const last = s.sent.at(-1);
    assert.ok(last?.type === 'hook_feedback' && last.feedback.endsWith(`That is ${MAX_HOOK_REFUSALS} refusals in a row: do not report task ${task.id} completed again. Tell the lead what stands in the way, then wait.`), JSON.stringify(last));
    assert.match(s.problems.at(-1) ?? '', new RegExp(`refused bob's completion of task ${task.id} ${MAX_HOOK_REFUSALS} times in a row; further reports of it are dropped`));
    s.receive(report('c-more'));
    assert.match(notices.at(-1) ?? '', /bob reported task 1 completed again, after 5 refusals in a row: dropped unchecked/);
    assert.equal(readFileSync(join(s.home, 'ran'), 'utf8').split('\n').length - 1, MAX_HOOK_REFUSALS, 'the hook ran once per refusal, not for the dropped report');
    assert.equal((await s.store.tasks.get(task.id))?.status, 'in_progress');
  });

  test('once the lead stops, a completion its hooks did not pass is not recorded; with no task_completed hook there is nothing to skip', async (t) => {
    const s = await setUp({ task_completed: [{ command: 'exit 0' }] });
    t.after(s.cleanup);
    const task = await s.store.tasks.create({ subject: 'parser', owner: 'bob' }, 'lead');
    await s.store.tasks.claim('bob', task.id);
    const notices: string[] = [];
    s.events.subscribe((e) => void (e.type === 'notice' && notices.push(e.text)));
    s.hooks.close();
    s.receive({ type: 'task_notification', id: 'c1', from: 'bob', to: 'lead', timestamp: new Date().toISOString(), task_id: task.id, status: 'completed', summary: 'done' } as Envelope);
    await waitFor(() => notices.length === 1, 'the report to be settled');
    assert.deepEqual(s.seen, []);
    assert.deepEqual(notices, [`task ${task.id} stays in progress: the team is stopping, so its task_completed hooks did not run`]);
    assert.equal((await s.store.tasks.get(task.id))?.status, 'in_progress');

    writeFileSync(settingsPath(s.home), JSON.stringify({ hooks: {} }));
    s.receive({ type: 'task_notification', id: 'c2', from: 'bob', to: 'lead', timestamp: new Date().toISOString(), task_id: task.id, status: 'completed', summary: 'done' } as Envelope);
    await waitFor(() => s.seen.length === 1, 'the second report to be settled');
    assert.equal((await s.store.tasks.get(task.id))?.status, 'completed');
  });

  test('a failing hook is audited and reported, and does not block; the next hook still runs', async (t) => {
    const s = await setUp({ task_completed: [{ command: 'echo broken >&2; exit 1' }, { command: 'exit 0' }], plan_submitted: [{ command: 'exit 2' }] });
    t.after(s.cleanup);
    assert.deepEqual(await s.hooks.run('task_completed', { task: { id: 't1' } }), { blocked: false });
    assert.deepEqual(await s.hooks.run('plan_submitted', {}), { blocked: false });
    assert.deepEqual(s.problems, ['hook on task_completed `echo broken >&2; exit 1`: exited 1: broken', 'hook on plan_submitted `exit 2`: exited 2, but plan_submitted cannot be blocked (only teammate_idle and task_completed can); the event went on']);
    const outcomes = (await s.store.audit.read()).entries.flatMap((e) => (e.event === 'hook' ? [`${e.hook_event} ${e.outcome}`] : []));
    assert.deepEqual(outcomes, ['task_completed failed', 'task_completed ok', 'plan_submitted failed']);
  });

  test('a malformed hooks section runs nothing, and is reported once, naming the file', async (t) => {
    const s = await setUp({ teammate_idle: [{ command: 'touch ran', timeout: -1 }] });
    t.after(s.cleanup);
    assert.deepEqual(await s.hooks.run('teammate_idle', {}), { blocked: false });
    assert.deepEqual(await s.hooks.run('teammate_idle', {}), { blocked: false });
    assert.equal(s.problems.length, 1);
    assert.match(s.problems[0] ?? '', new RegExp(`^hooks not run \\(fix the settings file\\): ${settingsPath(s.home)}: hooks\\.teammate_idle\\.0\\.timeout: `));
    assert.throws(() => readFileSync(join(s.home, 'ran')));
  });
});
