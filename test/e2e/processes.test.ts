import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive, killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { processesWith, sleepers, sleepMarker, toolResults } from './hostile.js';
import { TeamSession } from './session.js';

after(killAll);

/** A teammate, `name`, that runs one bash command and then ends its turn. */
function runs(name: string, command: string): unknown[] {
  return [
    { name: `${name} runs its command`, when: { agent: name, turn: 1 }, reply: { text: 'Running it.', tool_uses: [{ name: 'bash', input: { command } }] } },
    { name: `${name} is done`, when: { agent: name, after_tool: 'bash' }, reply: { text: 'Done.' } },
  ];
}

/** The demo's alice keeps the run going (her plan waits for the human); `worker` is ours. */
async function withWorker(session: TeamSession): Promise<number> {
  await session.pending('plan');
  const spawned = await session.cli(['spawn', 'worker', '--role', 'helper', '--prompt', 'Run the command']);
  assert.equal(spawned.code, 0, spawned.stderr);
  const pid = (await session.member('worker'))?.pid;
  assert.ok(pid, 'worker has a pid on the roster');
  return pid;
}

/** A process group of the test's own, in no way the team's: it must outlive whatever the team does. */
function foreignGroup(marker: string): ChildProcess {
  const child = spawn('sleep', [marker], { detached: true, stdio: 'ignore' });
  assert.ok(child.pid);
  return child;
}

async function killForeign(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Register a group the way teammates did before groups were reported over IPC: a file in procs/. */
function plantOldRegistration(session: TeamSession, agent: string, pgid: number): void {
  const dir = join(session.paths.root, 'procs', agent);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, String(pgid)), '');
}

/** SIGTERM the lead unless it already ended by itself, and expect a clean exit. */
async function stopLead(session: TeamSession): Promise<void> {
  if (session.lead.process.exitCode === null && session.lead.process.signalCode === null) process.kill(session.lead.pid, 'SIGTERM');
  assert.equal((await session.exited()).code, 0, session.lead.stderr());
}

/** Whatever a failed test left behind, by pid: no process outlives the test either way. */
function killMarked(markers: string[]): void {
  for (const pid of markers.flatMap(processesWith)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

const allGone = (markers: string[]) => markers.every((m) => processesWith(m).length === 0);

describe('no process a teammate started survives', () => {
  test('the lead killed with SIGKILL while a teammate\'s command blocks: the command, its setsid and nohup children and the teammate are gone', async (t) => {
    const markers = [sleepMarker(), sleepMarker(), sleepMarker()];
    const [detached, nohup, blocking] = markers as [string, string, string];
    t.after(() => killMarked(markers));
    const session = await TeamSession.start({ extraRules: runs('worker', `setsid sleep ${detached} & nohup sleep ${nohup} >/dev/null 2>&1 & sleep ${blocking}`) });
    t.after(() => session.cleanup());
    const worker = await withWorker(session);
    await waitFor(() => markers.every((m) => sleepers(m).length === 1), 'the three sleeps to run', 20_000);

    process.kill(session.lead.pid, 'SIGKILL');
    assert.equal((await session.exited()).signal, 'SIGKILL');
    await waitFor(() => allGone(markers) && !isAlive(worker), `no sleep and no worker left (left: ${markers.flatMap(processesWith).join(' ')})`, 10_000);
  });

  test('a command that leaves detached children and returns: they are gone once its result is in', async (t) => {
    const markers = [sleepMarker(), sleepMarker()];
    const [detached, nohup] = markers as [string, string];
    const command =
      `setsid sleep ${detached} & nohup sleep ${nohup} >/dev/null 2>&1 & ` +
      `until ps -eo args | grep -q '^sleep ${detached}' && ps -eo args | grep -q '^sleep ${nohup}'; do sleep 0.05; done; echo both running`;
    t.after(() => killMarked(markers));
    const session = await TeamSession.start({ extraRules: runs('worker', command) });
    t.after(() => session.cleanup());
    await withWorker(session);
    const result = await waitFor(() => toolResults(session, 'worker').find((r) => r.name === 'bash'), "the worker's bash result", 20_000);
    assert.match(result.content, /both running/);
    // Within a second of the result: the kernel may still be tearing the namespace down.
    await waitFor(() => allGone(markers), `the detached sleeps to be gone (left: ${markers.flatMap(processesWith).join(' ')})`, 1_000);

    assert.equal((await session.cli(['reject', (await session.pending('plan')).request_id, '--reason', 'stop'])).code, 0);
    await stopLead(session);
  });

  test("a group registered the old way, in procs/, survives alice's crash: the supervisor kills only groups reported over IPC", async (t) => {
    const marker = sleepMarker();
    const foreign = foreignGroup(marker);
    t.after(() => killForeign(foreign));
    const session = await TeamSession.start();
    t.after(() => session.cleanup());
    await session.pending('plan');
    const alice = await session.memberStatus('alice', 'awaiting_approval');
    plantOldRegistration(session, 'alice', foreign.pid as number);

    process.kill(alice.pid as number, 'SIGKILL');
    // The supervisor's exit handler kills before the lead marks alice crashed.
    await session.memberStatus('alice', 'crashed');
    await waitFor(() => !isAlive(alice.pid as number), 'alice to be gone');
    assert.deepEqual(sleepers(marker), [foreign.pid], 'the foreign group is still running');
    assert.equal(foreign.exitCode, null);
    assert.equal(foreign.signalCode, null);

    await killForeign(foreign);
    // With alice gone and her plan cancelled, the run may already have ended by itself.
    await stopLead(session);
  });

  test('with --no-sandbox a crashed teammate\'s reported command group is killed by the supervisor, and the planted one is not', async (t) => {
    const blocking = sleepMarker();
    const marker = sleepMarker();
    const foreign = foreignGroup(marker);
    t.after(() => killForeign(foreign));
    t.after(() => killMarked([blocking]));
    // The group is reported just after it starts. The megabyte of output, more than the pipe holds,
    // lets `sleep` start only once the worker has read output, so past its report: killing it
    // sooner would test that (narrow) window instead, where an unsandboxed group is lost.
    const session = await TeamSession.start({ extraRules: runs('worker', `head -c 1000000 /dev/zero; sleep ${blocking}`), extraArgs: ['--no-sandbox'] });
    t.after(() => session.cleanup());
    const worker = await withWorker(session);
    await waitFor(() => sleepers(blocking).length === 1, "the worker's command to run", 20_000);
    plantOldRegistration(session, 'worker', foreign.pid as number);

    // Unsandboxed, the command's group does not die with the worker: only the supervisor ends it.
    process.kill(worker, 'SIGKILL');
    await session.memberStatus('worker', 'crashed');
    await waitFor(() => processesWith(blocking).length === 0, `the reported group to be killed (left: ${processesWith(blocking).join(' ')})`, 5_000);
    assert.deepEqual(sleepers(marker), [foreign.pid], 'the foreign group is still running');

    await killForeign(foreign);
    assert.equal((await session.cli(['reject', (await session.pending('plan')).request_id, '--reason', 'stop'])).code, 0);
    await stopLead(session);
  });

  test(
    "with --no-sandbox, the lead killed with SIGKILL: a teammate's running command still ends with the teammate",
    async (t) => {
      const blocking = sleepMarker();
      t.after(() => killMarked([blocking]));
      const session = await TeamSession.start({ extraRules: runs('worker', `sleep ${blocking}`), extraArgs: ['--no-sandbox'] });
      t.after(() => session.cleanup());
      const worker = await withWorker(session);
      await waitFor(() => sleepers(blocking).length === 1, "the worker's command to run", 20_000);
      process.kill(session.lead.pid, 'SIGKILL');
      assert.equal((await session.exited()).signal, 'SIGKILL');
      await waitFor(() => !isAlive(worker), 'the worker to exit after its lead died', 10_000);
      await waitFor(() => processesWith(blocking).length === 0, `the worker's command to be gone (left: ${processesWith(blocking).join(' ')})`, 5_000);
    },
  );
});
