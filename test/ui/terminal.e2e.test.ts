import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../../src/lib/file-lock.js';
import { openFileStore } from '../../src/store/file/file-store.js';
import { teamPaths } from '../../src/team/paths.js';
import type { RequestRecord } from '../../src/protocol/request-records.js';
import { REPO_ROOT } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { hasTmux, Terminal, terminalInTempHome } from './tmux.js';
import { runCli } from '../helpers/cli.js';
import { sessionSpending } from '../../src/agent/session-journal.js';
import { tokensOf } from '../../src/model/usage.js';
import { tokens } from '../../src/ui/format.js';


/** A permission request's row in the approval queue (not its line in the transcript). */
const queueRow = (tool: string) => new RegExp(`permission\\s+alice\\s+\\d+s ago\\s+⏳ \\d+:\\d\\d\\s+${tool} `);

describe('teams in a real terminal (tmux), offline model', { skip: hasTmux ? false : 'tmux is not installed' }, () => {
  const { home, terminal, pids } = terminalInTempHome('teams-ui-e2e-');
  const paths = teamPaths(home, 'default');
  const team = openFileStore(paths);

  test('type a request, approve the plan with keys, deny one permission, approve another, quit: nothing left', async () => {
    const pending = (kind: RequestRecord['kind'], seen: string[] = []) =>
      waitFor(async () => (await team.requests.list({ state: 'pending', kind })).find((r) => !seen.includes(r.request_id)), `a pending ${kind} request; screen:\n${terminal.screen()}`, 20_000);
    const decided = (id: string, state: RequestRecord['state']) => waitFor(async () => (await team.requests.get(id))?.state === state, `${id} ${state}`);
    // Tab to the queue, unless it has kept the focus: it is read again after each decision, and
    // alice may be asking the next thing by then.
    const focusQueue = async () => {
      await terminal.shows(/Tab to review|y approve · n reject/);
      if (terminal.screen().includes('Tab to review')) terminal.keys('Tab');
      await terminal.shows('y approve · n reject');
    };
    // The pane's shell says how teams ended, then waits, so the last screen can be read.
    const stderr = join(home, 'teams.stderr');
    const teams = `env -u TEAMS_HOME -u TEAMS_TEAM node ${join(REPO_ROOT, 'bin', 'teams.js')} --home ${home} --offline --grace-ms 3000 2>${stderr}`;
    terminal.stderrPath = stderr;
    terminal.start(`${teams}; echo "teams exited with $?"; sleep 300`);

    // 1. The REPL is up, the offline model labelled as such.
    await terminal.shows('model offline-demo (scripted offline demo model, not Claude)');
    const leadPid = (await team.roster.load())?.members.find((m) => m.name === 'lead')?.pid;
    assert.ok(leadPid);
    pids.push(leadPid);

    // 2. A request for the lead.
    terminal.text('Write a short note about our build cache');
    terminal.keys('Enter');

    // 3. The teammate's plan shows in the queue; Tab then y approves it.
    const plan = await pending('plan');
    await terminal.shows('Approvals (1)');
    const alicePid = (await team.roster.load())?.members.find((m) => m.name === 'alice')?.pid;
    assert.ok(alicePid);
    pids.push(alicePid);
    await focusQueue();
    terminal.keys('y');
    await decided(plan.request_id, 'approved');

    // 4 and 5. It works: the first permission (the notes file) is denied with a reason...
    const write = await pending('permission');
    assert.match(write.summary, /^write_file/);
    // A person presses keys once the request is on screen: so does this test.
    await terminal.shows(queueRow('write_file'));
    await focusQueue();
    terminal.keys('n');
    await terminal.shows(`Reject ${write.request_id}, reason:`);
    terminal.text('no notes file, please');
    terminal.keys('Enter');
    await decided(write.request_id, 'rejected');
    // ...and the second (the cache) approved.
    const remove = await pending('permission', [write.request_id]);
    assert.match(remove.summary, /rm -rf build\/cache/);
    await terminal.shows(queueRow('bash'));
    await focusQueue();
    terminal.keys('y');
    await decided(remove.request_id, 'approved');
    await terminal.shows(/\[alice\] task completed: Task 1 /);
    await terminal.shows('alice exited (code 0)');
    assert.equal(existsSync(join(paths.workspace, 'notes.md')), false, 'the denied write never ran');

    // 6. Ctrl+C with text typed clears the line (as in Claude Code); on the empty line, twice leaves.
    // Five Backspaces sent in one go (one send-keys: one chunk) delete five characters.
    terminal.text('a sentence half typed!!!!!');
    await terminal.shows('a sentence half typed!!!!!');
    terminal.keys('BSpace', 'BSpace', 'BSpace', 'BSpace', 'BSpace');
    await waitFor(() => (terminal.screen().includes('a sentence half typed') && !terminal.screen().includes('typed!')) || undefined, `five Backspaces to delete five characters; screen:\n${terminal.screen()}`);
    terminal.keys('C-c');
    await waitFor(() => !terminal.screen().includes('a sentence half typed') || undefined, 'Ctrl+C to clear the line');
    assert.equal(isProcessAlive(leadPid), true, 'clearing the line left the team running');
    await terminal.quit();
    await terminal.shows('teams exited with 0');

    // 7. No process is left.
    await waitFor(() => !isProcessAlive(leadPid) && !isProcessAlive(alicePid), 'the lead and alice to be gone');
    assert.equal((await team.roster.load())?.members.find((m) => m.name === 'lead')?.status, 'shutdown');
  });

  test('closing the terminal mid-session stops the team and exits 0 (Node would abort restoring a vanished terminal)', async () => {
    const hangup = openFileStore(teamPaths(home, 'hangup'));
    const closing = new Terminal(join(home, 'tmux-hangup.sock'));
    const stderr = join(home, 'hangup.stderr');
    const exitCode = join(home, 'hangup.code');
    closing.stderrPath = stderr;
    // The pane's shell ignores the hangup so it can record how teams ended.
    const teams = `env -u TEAMS_HOME -u TEAMS_TEAM node ${join(REPO_ROOT, 'bin', 'teams.js')} --home ${home} --team hangup --offline --grace-ms 3000 2>${stderr}`;
    closing.start(`sh -c 'trap "" HUP; ${teams}; echo $? > ${exitCode}'`);
    try {
      await closing.shows('model offline-demo');
      closing.text('Write a short note about our build cache');
      closing.keys('Enter');
      await closing.shows('Approvals (1)');
      const members = (await hangup.roster.load())?.members ?? [];
      const live = members.flatMap((m) => (m.pid ? [m.pid] : []));
      assert.equal(live.length, 2, 'the lead and alice are running');
      pids.push(...live);
      closing.kill();
      const code = await waitFor(() => (existsSync(exitCode) ? readFileSync(exitCode, 'utf8').trim() || undefined : undefined), 'teams to exit after the hangup');
      assert.equal(code, '0', `teams' stderr:\n${closing.stderr()}`);
      assert.doesNotMatch(closing.stderr(), /Assertion failed|Aborted/);
      await waitFor(() => live.every((pid) => !isProcessAlive(pid)) || undefined, 'the lead and alice to be gone');
      assert.equal((await hangup.roster.load())?.members.find((m) => m.name === 'lead')?.status, 'shutdown');
    } finally {
      closing.kill();
    }
  });

  test('/task add, assign and cancel: the transcript says what happened, the task panel and the team panel show the board', async () => {
    const team = 'board';
    const added = await runCli(home, ['--team', team, 'member', 'add', 'alice', '--role', 'coder']);
    assert.equal(added.code, 0, added.stderr);
    const board = openFileStore(teamPaths(home, team));
    const shown = new Terminal(join(home, 'tmux-board.sock'));
    const stderr = join(home, 'board.stderr');
    shown.stderrPath = stderr;
    const teams = `env -u TEAMS_HOME -u TEAMS_TEAM node ${join(REPO_ROOT, 'bin', 'teams.js')} --home ${home} --team ${team} --offline --grace-ms 3000 2>${stderr}`;
    shown.start(`${teams}; echo "teams exited with $?"; sleep 300`);
    const command = (line: string) => {
      shown.text(line);
      shown.keys('Enter');
    };
    try {
      await shown.shows('model offline-demo');
      const lead = (await board.roster.load())?.members.find((m) => m.name === 'lead')?.pid;
      assert.ok(lead);
      pids.push(lead);
      command('/task add Write the docs');
      await shown.shows('added to the board: #1 [pending]: Write the docs');
      command('/task add "Publish them" --blocked-by 1');
      await shown.shows('added to the board: #2 [pending] blocked by 1: Publish them');
      shown.keys('C-t');
      await shown.shows(/Tasks \(2 open, 0 done\)[\s\S]*#2\s+pending\s+-\s+blocked by 1\s+Publish them/);
      command('/task assign 1 alice');
      await shown.shows('assigned to alice: #1 [pending] @alice: Write the docs');
      // alice takes it, as her process would: both panels follow the board.
      assert.ok((await board.tasks.claim('alice', '1')).ok);
      await shown.shows(/^alice\s+coder\s.*#1 Write the docs/m);
      await shown.shows(/#1\s+in_progress\s+alice\s+Write the docs/);
      command('/task cancel 7');
      await shown.shows('/task: unknown task 7');
      command('/task cancel 2');
      await shown.shows('cancelled: #2 [cancelled] blocked by 1: Publish them');
      assert.equal((await board.tasks.get('2'))?.status, 'cancelled');
      await shown.quit();
      await shown.shows('teams exited with 0');
    } finally {
      shown.kill();
    }
  });

  test('teams --continue shows the earlier conversation, counts what it spent, and the lead goes on with it', async () => {
    const team = 'continued';
    const script = join(home, 'continue-script.json');
    const demo = JSON.parse(readFileSync(join(REPO_ROOT, 'prompts', 'offline', 'demo.json'), 'utf8')) as { rules: unknown[] };
    const rules = [
      { when: { agent: 'lead', last: 'What was the code word\\?' }, reply: { text: 'You told me first: {{first}}' } },
      { when: { agent: 'lead', last: 'code word is' }, reply: { text: 'Noted the word.' } },
    ];
    writeFileSync(script, JSON.stringify({ ...demo, rules: [...rules, ...demo.rules] }));
    const first = await runCli(home, ['--team', team, 'run', '--offline', '--script', script, 'The code word is HERON.']);
    assert.equal(first.code, 0, first.stderr);
    const id = /session (session-[0-9a-z]{10})/.exec(first.stdout)?.[1];
    assert.ok(id, first.stdout);
    // What the first run's model calls used, as its journals record them: the continued header starts from it.
    const store = openFileStore(teamPaths(home, team));
    const members = ((await store.roster.load())?.members ?? []).map((m) => m.name);
    const spent = Object.values(await sessionSpending(store.sessions, id, members)).reduce((sum, s) => sum + tokensOf(s.usage), 0);
    assert.ok(spent > 0, 'the first run used tokens');

    const again = new Terminal(join(home, 'tmux-continue.sock'));
    const stderr = join(home, 'continue.stderr');
    again.stderrPath = stderr;
    const teams = `env -u TEAMS_HOME -u TEAMS_TEAM node ${join(REPO_ROOT, 'bin', 'teams.js')} --home ${home} --team ${team} --offline --script ${script} --continue 2>${stderr}`;
    again.start(`${teams}; echo "teams exited with $?"; sleep 300`);
    try {
      await again.shows(`resumed session ${id}; its conversation so far:`);
      await again.shows('The code word is HERON.');
      await again.shows('Noted the word.');
      await again.shows(`${tokens(spent)} tokens`);
      again.text('/cost');
      again.keys('Enter');
      await again.shows(`session ${id}: ${spent} tokens, $0.0000`);
      const lead = (await store.roster.load())?.members.find((m) => m.name === 'lead')?.pid;
      assert.ok(lead);
      pids.push(lead);
      again.text('What was the code word?');
      again.keys('Enter');
      await again.shows('You told me first: The code word is HERON.');

      // /clear, then /resume's picker: the earlier session offered first, Enter goes back to it.
      again.text('/clear');
      again.keys('Enter');
      await again.shows(/the lead starts a fresh conversation in session session-[a-z0-9]{10}/);
      again.text('/resume');
      again.keys('Enter');
      await again.shows('Resume a session');
      await again.shows(new RegExp(`› +1\\. .*"The code word is HERON\\." +\\d+ records · [\\d.k]+ tokens · ${id}`));
      again.keys('Enter');
      await again.shows(`resumed session ${id}; its conversation so far:`);
      await again.shows('You told me first: The code word is HERON.');
      await again.shows(`the lead goes on with session ${id}`);
      again.text('/respawn zed');
      again.keys('Enter');
      await again.shows(`/respawn: no teammate 'zed' in team '${team}'`);
      await again.quit();
      await again.shows('teams exited with 0');
    } finally {
      again.kill();
    }
  });
});
