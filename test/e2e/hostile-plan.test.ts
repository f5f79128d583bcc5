import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { toolResults } from './hostile.js';
import { TeamSession } from './session.js';

after(killAll);

/**
 * Commands the plan-mode policy believes read-only, which run a command the repository's
 * own configuration names: `git status` runs core.fsmonitor, and `git diff` runs diff.external.
 * In plan mode they are allowed without asking; the read-only sandbox is what keeps them from
 * writing. (Options that name a program on the command line, such as `git grep -O<cmd>`, the
 * policy refuses; a repository's configuration it cannot see.)
 */
const EXTERNAL_DIFF = 'git diff';

const RULES: unknown[] = [
  {
    name: 'mallory looks around with "read-only" git commands',
    when: { agent: 'mallory', turn: 1 },
    reply: {
      text: 'Reading the repository first.',
      tool_uses: [
        { name: 'bash', input: { command: 'git status' } },
        { name: 'bash', input: { command: EXTERNAL_DIFF } },
      ],
    },
  },
  // First: the approval joins the plan's tool result when the turn waited for it.
  {
    name: 'mallory writes once approved',
    when: { agent: 'mallory', last: 'Your plan was approved' },
    reply: { text: 'Writing.', tool_uses: [{ name: 'bash', input: { command: 'echo approved > approved.txt', write: true } }] },
  },
  {
    name: 'mallory submits a plan',
    when: { agent: 'mallory', after_tool: 'bash' },
    times: 1,
    reply: { text: 'Here is my plan.', tool_uses: [{ name: 'plan_approval_request', input: { plan: '1. Write approved.txt' } }] },
  },
  { name: 'mallory waits for the decision', when: { agent: 'mallory', after_tool: 'plan_approval_request' }, reply: { text: 'Waiting for approval.' } },
  { name: 'mallory is done', when: { agent: 'mallory', after_tool: 'bash' }, reply: { text: 'Done.' } },
];

const bashResults = (session: TeamSession) => toolResults(session, 'mallory').filter((r) => r.name === 'bash');

/** A repository whose own config runs commands on `git status` and `git diff`, as a cloned hostile repo could. */
function hostileRepo(workdir: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workdir, stdio: 'pipe' });
  git('init', '-q', '.');
  git('config', 'core.fsmonitor', `echo pwned > ${join(workdir, 'pwned.txt')}; exit 0 #`);
  git('config', 'diff.external', `echo pwned > ${join(workdir, 'pwned-diff.txt')}; exit 0 #`);
  writeFileSync(join(workdir, 'README'), 'needle\n');
  git('add', 'README');
  // A change for `git diff` to show, through the external driver.
  writeFileSync(join(workdir, 'README'), 'needle, changed\n');
}

describe('plan mode: a command the parser believes read-only cannot write', () => {
  for (const sandbox of ['on', 'off'] as const) {
    test(sandbox === 'on' ? 'sandboxed: git status runs core.fsmonitor, git diff runs diff.external, and neither writes' : 'the control, with --no-sandbox: the same commands do write (approvals are advisory)', async (t) => {
      const prepared = TeamSession.prepare({ layout: 'apart', extraRules: RULES, extraArgs: sandbox === 'off' ? ['--no-sandbox'] : [] });
      const { workdir } = prepared;
      // Until the session owns it (and if the test fails before it starts), the test does.
      t.after(() => rmSync(dirname(workdir), { recursive: true, force: true }));
      const pwned = join(workdir, 'pwned.txt');
      const pwnedDiff = join(workdir, 'pwned-diff.txt');
      hostileRepo(workdir);
      // The attack, outside any sandbox: plain `git status` and `git diff` write.
      execFileSync('git', ['status'], { cwd: workdir, stdio: 'pipe' });
      assert.ok(existsSync(pwned), 'git status ran core.fsmonitor');
      execFileSync('sh', ['-c', EXTERNAL_DIFF], { cwd: workdir, stdio: 'pipe' });
      assert.ok(existsSync(pwnedDiff), 'git diff ran diff.external');
      rmSync(pwned);
      rmSync(pwnedDiff);

      const session = await prepared.start();
      t.after(() => session.cleanup());
      const alicePlan = await session.pending('plan');
      const spawned = await session.cli(['spawn', 'mallory', '--role', 'helper', '--plan-mode', '--prompt', 'Tell me what state the repository is in']);
      assert.equal(spawned.code, 0, spawned.stderr);

      const plan = await waitFor(async () => (await session.requests()).find((r) => r.from === 'mallory' && r.kind === 'plan'), "mallory's plan", 20_000);
      await session.memberStatus('mallory', 'awaiting_approval');
      const [status, diff] = bashResults(session);
      assert.ok(status && diff, 'two bash results');
      // The policy let both run: plan mode believes them read-only.
      for (const result of [status, diff]) assert.doesNotMatch(result.content, /Not allowed/, result.content);
      assert.match(status.content, /On branch/);

      if (sandbox === 'on') {
        // Both commands ran, and the read-only working directory refused their writes.
        assert.match(status.content, /pwned\.txt: Read-only file system/, status.content);
        assert.match(diff.content, /pwned-diff\.txt: Read-only file system/, diff.content);
        assert.equal(existsSync(pwned), false, 'core.fsmonitor wrote in plan mode');
        assert.equal(existsSync(pwnedDiff), false, 'diff.external wrote in plan mode');
      } else {
        assert.ok(existsSync(pwned) && existsSync(pwnedDiff), 'without the sandbox the same commands write: the check can fail');
      }
      // Its plan and approval state are as plan mode left them: one plan, pending, nothing decided.
      assert.deepEqual(
        (await session.requests()).filter((r) => r.from === 'mallory').map((r) => [r.kind, r.state]),
        [['plan', 'pending']],
      );
      assert.equal((await session.member('mallory'))?.status, 'awaiting_approval');
      assert.equal(existsSync(join(workdir, 'approved.txt')), false);

      // Approved: a command that asks to write asks the human, and once approved it writes.
      assert.equal((await session.cli(['approve', plan.request_id])).code, 0);
      const asked = await waitFor(async () => (await session.requests()).find((r) => r.from === 'mallory' && r.kind === 'permission' && r.state === 'pending'), "mallory's request to write", 20_000);
      assert.match(asked.summary, /if approved: may write the working directory, no network/);
      assert.equal((await session.cli(['approve', asked.request_id])).code, 0);
      const wrote = await waitFor(() => bashResults(session)[2], "mallory's write after approval", 20_000);
      assert.equal(wrote.isError, false, wrote.content);
      assert.equal(readFileSync(join(workdir, 'approved.txt'), 'utf8'), 'approved\n');

      assert.equal((await session.cli(['reject', alicePlan.request_id, '--reason', 'stop here'])).code, 0);
      process.kill(session.lead.pid, 'SIGTERM');
      assert.equal((await session.exited()).code, 0, session.lead.stderr());
    });
  }
});
