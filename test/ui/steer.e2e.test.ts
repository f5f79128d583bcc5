import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../../src/lib/file-lock.js';
import { openFileStore } from '../../src/store/file/file-store.js';
import { teamPaths } from '../../src/team/paths.js';
import { REPO_ROOT } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { occurrences } from './terminal.js';
import { hasTmux, terminalInTempHome } from './tmux.js';

/** A marker only this test's long command carries, to find its process. */
const SLOW = 'sleep 9137';

/**
 * `worker`'s scenario, as data: it shows a tool call as it starts, cleans up when the user
 * says so (a recursive delete: it asks), runs a long check, and after an interrupt answers
 * only if its request carries the interrupted note.
 */
const WORKER_RULES = [
  // The lead only takes note: the worker's messages must not set it spawning teammates of its own.
  { name: 'lead takes note', when: { agent: 'lead' }, reply: { text: 'Noted.' } },
  { name: 'worker resumes', when: { agent: 'worker', last: 'The user interrupted you\\. Wait for their next message\\.\\][\\s\\S]*From the user: carry on' }, reply: { text: 'RESUMED after the interrupt.' } },
  { name: 'worker cleans up', when: { agent: 'worker', last: 'From the user: clean up' }, reply: { text: 'Cleaning up.', tool_uses: [{ name: 'bash', input: { command: 'rm -rf scratch/tmp' } }] } },
  { name: 'worker runs the slow check', when: { agent: 'worker', last: 'From the user: run the slow check' }, reply: { text: 'Running it.', tool_uses: [{ name: 'bash', input: { command: SLOW } }] } },
  { name: 'worker after a command', when: { agent: 'worker', after_tool: 'bash' }, reply: { text: 'Done with that.' } },
  { name: 'worker starts', when: { agent: 'worker', turn: 1 }, reply: { text: 'Looking around.', tool_uses: [{ name: 'bash', input: { command: 'echo hello-from-worker' } }] } },
];

describe('watching and steering a teammate in a real terminal (tmux), offline model', { skip: hasTmux ? false : 'tmux is not installed' }, () => {
  const { home, terminal, pids } = terminalInTempHome('teams-steer-e2e-');

  test("switch to its view, see its tool call, speak to it as the user, allow its command by a rule, interrupt it, change its mode", async () => {
    const paths = teamPaths(home, 'default');
    const team = openFileStore(paths);
    mkdirSync(join(paths.workspace, 'scratch', 'tmp'), { recursive: true });
    const demo = JSON.parse(readFileSync(join(REPO_ROOT, 'prompts', 'offline', 'demo.json'), 'utf8')) as { rules: unknown[] };
    const script = join(home, 'script.json');
    writeFileSync(script, JSON.stringify({ ...demo, rules: [...WORKER_RULES, ...demo.rules] }));
    const stderr = join(home, 'teams.stderr');
    terminal.stderrPath = stderr;
    const teams = `env -u TEAMS_HOME -u TEAMS_TEAM node ${join(REPO_ROOT, 'bin', 'teams.js')} --home ${home} --offline --script ${script} --grace-ms 3000 2>${stderr}`;
    terminal.start(`${teams}; echo "teams exited with $?"; sleep 300`);
    const say = (text: string) => {
      terminal.text(text);
      terminal.keys('Enter');
    };
    const permissions = async () => (await team.requests.list({ kind: 'permission' })).filter((r) => r.from === 'worker');

    await terminal.shows('view lead (Shift+↑/↓)');
    say('/spawn worker helper');
    const worker = await waitFor(async () => (await team.roster.load())?.members.find((m) => m.name === 'worker' && m.pid)?.pid ?? undefined, 'worker to start');
    const lead = (await team.roster.load())?.members.find((m) => m.name === 'lead')?.pid;
    assert.ok(lead);
    pids.push(lead, worker);

    // 1. Its view: what it did before the view opened, its tool call among it.
    // Its row in the team panel (not the /spawn line typed above): the REPL knows of it now.
    await terminal.shows(/^worker\s+helper\s+offline-demo/m);
    terminal.keys('S-Down');
    await terminal.shows('Viewing worker: what you type goes to worker as your message');
    await terminal.shows('⚙ bash command=echo hello-from-worker → hello-from-worker');

    // 2. Words typed here reach its model as the user's.
    say('clean up');
    await terminal.shows('From the user: clean up');
    // Its recursive delete asks; `a`, then `p`, then Enter: an allow rule for the project, and approved.
    const asked = await waitFor(async () => (await permissions()).find((r) => r.state === 'pending'), 'the permission request');
    assert.match(asked.summary, /rm -rf scratch\/tmp/);
    await terminal.shows(/Tab to review|y approve · n reject/);
    if (terminal.screen().includes('Tab to review')) terminal.keys('Tab');
    // Each key once the screen has answered the one before, as a person would press them.
    await terminal.shows('y approve · n reject');
    terminal.keys('a');
    await terminal.shows('this exact call, for the session');
    terminal.keys('p');
    await terminal.shows('Bash(rm -rf scratch/tmp)');
    terminal.keys('Enter');
    await waitFor(async () => (await team.requests.get(asked.request_id))?.state === 'approved', 'the approval');
    await terminal.shows('⚙ bash command=rm -rf scratch/tmp → (no output)');

    // 3. The rule lets the same command run again without asking.
    say('clean up again');
    await waitFor(() => occurrences(terminal.screen(), '⚙ bash command=rm -rf scratch/tmp →') === 2 || undefined, `the second delete; screen:\n${terminal.screen()}`);
    assert.equal((await permissions()).length, 1, 'the repeated command asked nobody');

    // 4. Esc interrupts its long command: the command is gone, and it waits for the user.
    say('run the slow check');
    await terminal.shows(`⚙ bash command=${SLOW} …`);
    const slowRunning = () => spawnSync('pgrep', ['-f', SLOW]).status === 0;
    await waitFor(() => slowRunning() || undefined, 'the slow command to run');
    terminal.keys('Escape');
    await terminal.shows('turn stopped: interrupted');
    await waitFor(() => !slowRunning() || undefined, 'the slow command to be gone');
    say('carry on');
    await terminal.shows('RESUMED after the interrupt.');

    // 5. /mode changes its mode.
    say('/mode worker accept-edits');
    await waitFor(async () => (await team.roster.load())?.members.find((m) => m.name === 'worker')?.permission_mode === 'accept-edits' || undefined, 'the mode in the roster');
    await terminal.shows(/worker\s+helper\s+\S+\s+accept-edits/);

    // Back to the lead, then leave: nothing is left running.
    terminal.keys('S-Up');
    await terminal.shows('view lead (Shift+↑/↓)');
    await terminal.quit();
    await terminal.shows('teams exited with 0');
    await waitFor(() => (!isProcessAlive(lead) && !isProcessAlive(worker)) || undefined, 'the lead and worker to be gone');
  });
});
