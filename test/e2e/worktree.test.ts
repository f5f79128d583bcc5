import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { TeamSession, type SessionOptions } from './session.js';

after(killAll);

const BRANCH = 'teams/default/alice';
const IDENTITY = ['-c', 'user.name=human', '-c', 'user.email=human@example.invalid'];
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, ...IDENTITY, ...args], { encoding: 'utf8' });

/** The lead spawns alice into a worktree; `teammate` are her first moves (the demo's rules do the rest: report, shut down). */
function rules(teammate: unknown[]): unknown[] {
  return [
    {
      name: 'lead: spawn alice into her own worktree',
      when: { agent: 'lead', turn: 1 },
      times: 1,
      reply: { tool_uses: [{ name: 'spawn_teammate', input: { name: 'alice', role: 'coder', prompt: '{{last}}', isolation: 'worktree' } }] },
    },
    ...teammate,
  ];
}

const writes = (path: string, content: string) => ({ name: 'alice writes', when: { agent: 'teammate', turn: 1 }, times: 1, reply: { tool_uses: [{ name: 'write_file', input: { path, content } }] } });
const runs = (after: string, command: string) => ({ name: `alice runs ${command}`, when: { agent: 'teammate', after_tool: after }, times: 1, reply: { tool_uses: [{ name: 'bash', input: { command } }] } });

/** A session whose working directory is a git repository with one commit (README). */
async function inRepository(extraRules: unknown[], repo = true): Promise<TeamSession> {
  const options: SessionOptions = { layout: 'state-in-workdir', extraRules, extraArgs: ['--permission-mode', 'bypass'] };
  const prepared = TeamSession.prepare(options);
  if (repo) {
    execFileSync('git', ['init', '-q', '-b', 'main', prepared.workdir]);
    writeFileSync(join(prepared.workdir, 'README'), 'start\n');
    git(prepared.workdir, 'add', 'README');
    git(prepared.workdir, 'commit', '-q', '-m', 'start');
  }
  return prepared.start();
}

const worktreeOf = (session: TeamSession) => join(session.paths.root, 'worktrees', 'alice');
const notices = (session: TeamSession) => session.events().filter((e) => e.type === 'notice').map((e) => String(e.text));

describe('a teammate in its own git worktree, end to end', () => {
  test('its file appears only in its worktree; at shutdown its leftovers are committed and kept; teams diff shows them, teams merge lands them', async (t) => {
    const session = await inRepository(rules([writes('notes.md', 'from alice\n')]));
    t.after(() => session.cleanup());
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    const workdir = session.workdir;
    assert.equal(existsSync(join(workdir, 'notes.md')), false, "the lead's tree is untouched");
    assert.equal(readFileSync(join(worktreeOf(session), 'notes.md'), 'utf8'), 'from alice\n');
    const member = await session.member('alice');
    assert.equal(member?.worktree?.branch, BRANCH);
    assert.equal(member?.worktree?.base, git(workdir, 'rev-parse', 'main').trim());
    // Committed as the harness, on her branch; kept, since it is not merged; the human was told.
    assert.equal(git(workdir, 'log', '--format=%an: %s', '-1', BRANCH), 'teams: teams: what alice left uncommitted\n');
    assert.match(notices(session).join('\n'), /alice's worktree is kept: what it left uncommitted was committed; teams\/default\/alice has 1 commit not merged/);
    assert.ok((await session.audit()).some((e) => e.event === 'member' && /worktree is kept/.test(e.change)));
    // Her task told her where her work goes: her branch, to commit on, for the human to merge.
    const id = String(session.events().find((e) => e.type === 'session')?.id);
    const journal = (await session.store.sessions.read(id, 'alice')).entries.map((e) => JSON.stringify(e.record)).join('\n');
    assert.match(journal, /You work in your own git worktree for the branch teams\/default\/alice \(from [0-9a-f]{12}\)/);

    const status = await session.cli(['status']);
    assert.match(status.stdout, /worktrees:\n {2}alice {2}teams\/default\/alice {2}1 unmerged commit/);
    const diff = await session.cli(['diff', 'alice']);
    assert.equal(diff.code, 0, diff.stderr);
    assert.match(diff.stdout, /\+\+\+ b\/notes\.md\n@@ -0,0 \+1 @@\n\+from alice/);

    const merged = await session.cli(['merge', 'alice']);
    assert.equal(merged.code, 0, merged.stderr);
    assert.match(merged.stdout, /merged 1 commit of teams\/default\/alice into your branch/);
    assert.equal(readFileSync(join(workdir, 'notes.md'), 'utf8'), 'from alice\n');
    assert.equal(existsSync(worktreeOf(session)), false);
    assert.equal(git(workdir, 'branch', '--list', BRANCH), '');
    assert.doesNotMatch((await session.cli(['status'])).stdout, /worktrees:/);
  });

  test('what it commits itself, in the sandbox, lands; a conflicting merge is reported and leaves the tree as it was; discard throws it away', async (t) => {
    const commit = `echo alice > README && git add -A && git -c user.name=alice -c user.email=alice@example.invalid commit -q -m "alice's README" && echo committed`;
    const session = await inRepository(rules([writes('plan.md', 'the plan\n'), runs('write_file', commit)]));
    t.after(() => session.cleanup());
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    const workdir = session.workdir;
    // Her own commit (made inside bubblewrap), then what she left (plan.md was added by her git add -A: nothing left).
    assert.equal(git(workdir, 'log', '--format=%an: %s', `main..${BRANCH}`), "alice: alice's README\n");

    // Meanwhile the human changed the same line.
    writeFileSync(join(workdir, 'README'), 'human\n');
    git(workdir, 'commit', '-q', '-am', "the human's README");
    const head = git(workdir, 'rev-parse', 'HEAD');
    const merge = await session.cli(['merge', 'alice']);
    assert.equal(merge.code, 2, merge.stdout);
    assert.match(merge.stderr, /merging alice's work failed \(conflicts in README\): nothing was merged, your tree is as it was/);
    assert.equal(git(workdir, 'rev-parse', 'HEAD'), head);
    assert.equal(git(workdir, 'status', '--porcelain', '--untracked-files=no'), '');
    assert.equal(readFileSync(join(workdir, 'README'), 'utf8'), 'human\n');
    assert.equal(existsSync(join(workdir, '.git', 'MERGE_HEAD')), false);

    const discard = await session.cli(['discard', 'alice']);
    assert.equal(discard.code, 0, discard.stderr);
    assert.equal(existsSync(worktreeOf(session)), false);
    assert.equal(git(workdir, 'branch', '--list', BRANCH), '');
  });

  test('killed with SIGKILL: its leftovers are committed and the worktree kept; teams gc keeps it until it is merged, then removes it', async (t) => {
    const session = await inRepository(rules([writes('half.md', 'half done\n'), runs('write_file', 'sleep 60')]));
    t.after(() => session.cleanup());
    await waitFor(() => existsSync(join(worktreeOf(session), 'half.md')), 'alice to write half.md');
    const alice = await session.memberStatus('alice', 'working');
    process.kill(alice.pid ?? 0, 'SIGKILL');
    await session.memberStatus('alice', 'crashed');
    await waitFor(() => notices(session).find((text) => /alice's worktree is kept/.test(text)), 'the notice that her worktree is kept');
    const workdir = session.workdir;
    assert.equal(git(workdir, 'log', '--format=%s', `main..${BRANCH}`), 'teams: what alice left uncommitted\n');
    assert.equal((await session.exited()).code, 0, session.lead.stderr());

    const kept = await session.cli(['gc']);
    assert.equal(kept.code, 0, kept.stderr);
    assert.match(kept.stdout, /no worktree removed\nkept alice: teams\/default\/alice has 1 unmerged commit/);
    assert.ok(existsSync(worktreeOf(session)));

    git(workdir, 'merge', '-q', '--no-edit', BRANCH);
    const removed = await session.cli(['gc']);
    assert.equal(removed.stdout, 'removed: alice\n', removed.stderr);
    assert.equal(existsSync(worktreeOf(session)), false);
    assert.equal(git(workdir, 'branch', '--list', BRANCH), '');
  });

  test('outside a git repository the spawn is refused with a clear error, and nothing starts', async (t) => {
    const session = await inRepository(rules([]), false);
    t.after(() => session.cleanup());
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    const refusal = session.events().find((e) => e.type === 'agent' && /not in a git repository/.test(JSON.stringify(e)));
    assert.ok(refusal, session.lead.stdout());
    assert.match(JSON.stringify(refusal), /cannot give alice a worktree: .* is not in a git repository/);
    assert.equal(await session.member('alice'), undefined);
  });
});
