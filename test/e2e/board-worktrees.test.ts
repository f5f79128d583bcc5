import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive, killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { TeamSession, taskNotifications as notifications } from './session.js';
import { logEvents } from './worker.js';

after(killAll);

const IDENTITY = ['-c', 'user.name=human', '-c', 'user.email=human@example.invalid'];
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...IDENTITY, ...args], { encoding: 'utf8' });

/** Each spawned teammate's pid, as the lead's spawn_teammate answered it. */
function spawnedPids(session: TeamSession): Map<string, number> {
  const pids = new Map<string, number>();
  for (const match of session.lead.stdout().matchAll(/Spawned (\w+) \([^)]*pid (\d+)\)/g)) pids.set(match[1] ?? '', Number(match[2]));
  return pids;
}

/** The offline demo's board-in-worktrees flow, the lead's working directory a git repository with one commit. */
async function boardInWorktrees(): Promise<TeamSession> {
  const prepared = TeamSession.prepare({
    layout: 'state-in-workdir',
    prompt: 'Use the task board in worktrees: our build cache',
    // The teammates write files; in `default` each write would wait for a human's approval.
    extraArgs: ['--permission-mode', 'accept-edits'],
  });
  execFileSync('git', ['init', '-q', '-b', 'main', prepared.workdir]);
  writeFileSync(join(prepared.workdir, 'README'), 'start\n');
  git(prepared.workdir, 'add', 'README');
  git(prepared.workdir, 'commit', '-q', '-m', 'start');
  return prepared.start();
}

describe('the task board with teammates in worktrees, end to end (offline demo, "Use the task board in worktrees:")', () => {
  test('two dependent tasks done in order by alice and bob, each on its own branch; both completions reach the lead by task id; teams merge lands both, leaving no worktree or process', async (t) => {
    const session = await boardInWorktrees();
    t.after(() => session.cleanup());
    const workdir = session.workdir;
    const base = git(workdir, 'rev-parse', 'main').trim();
    const heard = (id: string) => notifications(session).find((n) => n.task_id === id && n.status === 'completed');
    await waitFor(() => heard('2'), `the lead to hear task 2 completed; lead stderr: ${session.lead.stderr().slice(-500)}`, 60_000);
    // With nothing left to do, the run shuts the team down and ends by itself.
    await waitFor(() => session.lead.process.exitCode !== null || session.lead.process.signalCode !== null, 'the run to end', 30_000);
    assert.equal((await session.exited()).code, 0, session.lead.stderr());

    // The lead heard task 1 (alice's) before task 2 (bob's), each by its board id.
    const completed = notifications(session).filter((n) => n.status === 'completed' && (n.task_id === '1' || n.task_id === '2'));
    assert.deepEqual(
      completed.map((n) => [n.task_id, n.from, n.result]),
      [
        ['1', 'alice', 'alice wrote notes.md on its branch.'],
        ['2', 'bob', 'bob wrote checklist.md on its branch.'],
      ],
    );

    // The board: both completed, by their owners, task 2 blocked by task 1 and finished after it.
    const [one, two] = await session.store.tasks.list();
    assert.deepEqual(
      [one, two].map((task) => [task?.id, task?.subject, task?.status, task?.owner, task?.blocked_by, task?.result]),
      [
        ['1', 'Write notes.md', 'completed', 'alice', [], 'alice wrote notes.md on its branch.'],
        ['2', 'Write checklist.md', 'completed', 'bob', ['1'], 'bob wrote checklist.md on its branch.'],
      ],
    );
    assert.ok(Date.parse(two?.updated_at ?? '') >= Date.parse(one?.updated_at ?? ''), 'task 2 finished after task 1');
    // bob (spawned first) claimed task 2 only once alice was completing task 1; any claim before that found nothing ready.
    const claims = logEvents(session, 'bob').filter((e) => e.type === 'tool_result' && e.name === 'task_claim');
    const won = claims.at(-1);
    assert.match(String(won?.content), /^Claimed; it is yours now:\n#2 /);
    for (const early of claims.slice(0, -1)) assert.equal(early.content, 'no task is ready for bob to claim');
    const completing = logEvents(session, 'alice').find((e) => e.type === 'tool_call' && e.name === 'task_update');
    assert.ok(Date.parse(String(won?.at)) >= Date.parse(String(completing?.at)), `bob claimed task 2 at ${String(won?.at)}, before alice completed task 1 at ${String(completing?.at)}`);
    const board = await session.cli(['tasks', '--status', 'completed']);
    assert.match(board.stdout, /^#1 \[completed\] @alice: Write notes\.md$/m, board.stderr);
    assert.match(board.stdout, /^#2 \[completed\] @bob blocked by 1: Write checklist\.md$/m);
    // And the teammates' own tasks too: each closed it once nothing was left to claim.
    assert.deepEqual((await session.store.tasks.list()).map((task) => task.status), ['completed', 'completed', 'completed', 'completed']);

    // Each wrote in its own worktree, on its own branch from main: nothing in the lead's tree yet.
    for (const name of ['alice', 'bob']) {
      const worktree = (await session.member(name))?.worktree;
      assert.deepEqual([worktree?.branch, worktree?.base], [`teams/default/${name}`, base]);
    }
    assert.equal(existsSync(join(workdir, 'notes.md')), false);
    assert.equal(existsSync(join(workdir, 'checklist.md')), false);
    assert.match((await session.cli(['status'])).stdout, /worktrees:\n {2}alice {2}teams\/default\/alice {2}1 unmerged commit[^\n]*\n {2}bob {2}teams\/default\/bob {2}1 unmerged commit/);
    const diff = await session.cli(['diff', 'bob']);
    assert.equal(diff.code, 0, diff.stderr);
    assert.match(diff.stdout, /\+\+\+ b\/checklist\.md\n@@ -0,0 \+1 @@\n\+A checklist for our build cache\./);
    assert.doesNotMatch(diff.stdout, /notes\.md/, "bob's branch holds only his own work");

    // Both merged into the lead's branch: their commits are on main, their files in the tree.
    const heads = ['alice', 'bob'].map((name) => git(workdir, 'rev-parse', `teams/default/${name}`).trim());
    for (const name of ['alice', 'bob']) {
      const merged = await session.cli(['merge', name]);
      assert.equal(merged.code, 0, merged.stderr);
      assert.match(merged.stdout, new RegExp(`^${name}: merged 1 commit of teams/default/${name} into your branch; its worktree and branch are removed$`, 'm'));
    }
    assert.equal(git(workdir, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'main');
    for (const head of heads) git(workdir, 'merge-base', '--is-ancestor', head, 'main');
    assert.equal(readFileSync(join(workdir, 'notes.md'), 'utf8'), 'Notes on our build cache.\n');
    assert.equal(readFileSync(join(workdir, 'checklist.md'), 'utf8'), 'A checklist for our build cache.\n');

    // Nothing left behind: no worktree, no teams branch, no teammate process.
    assert.doesNotMatch((await session.cli(['status'])).stdout, /worktrees:/);
    assert.equal(git(workdir, 'worktree', 'list', '--porcelain').match(/^worktree /gm)?.length, 1);
    assert.equal(git(workdir, 'branch', '--list', 'teams/*'), '');
    assert.equal(existsSync(join(session.paths.root, 'worktrees', 'alice')), false);
    assert.equal(existsSync(join(session.paths.root, 'worktrees', 'bob')), false);
    const pids = spawnedPids(session);
    assert.deepEqual([...pids.keys()].sort(), ['alice', 'bob']);
    await waitFor(() => [...pids.values()].every((pid) => !isAlive(pid)), 'both teammate processes to be gone', 10_000);
  });
});
