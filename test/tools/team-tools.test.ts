import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { READ_ONLY_GRANT } from '../../src/policy/grant.js';
import type { Member } from '../../src/store/roster.js';
import type { RequestRecord } from '../../src/protocol/request-records.js';
import type { FileIO } from '../../src/tools/files.js';
import type { ShellIO } from '../../src/tools/shell.js';
import type { LeadBoardIO, LeadTeamIO, Spawned, SpawnSpec, TeammateBoardIO, TeammateTeamIO } from '../../src/tools/team-io.js';
import type { OutgoingDraft } from '../../src/protocol/messages.js';
import { leadTools, runTool, teammateTools, type LeadToolIO, type TeammateToolIO } from '../../src/tools/toolsets.js';

const unused = <T extends object>(what: string) => new Proxy({} as T, { get: () => assert.fail(`${what} was used`) });

/** An in-memory team for either role: records every call, answers from fixed data, refuses what a test says. */
class FakeTeam implements LeadTeamIO, TeammateTeamIO {
  calls: unknown[][] = [];
  members: Member[] = [];
  requests = new Map<string, RequestRecord>();
  refuse: string | undefined;
  /** The board's tools are tested over a real board (board-tools.test.ts). */
  readonly board = unused<LeadBoardIO & TeammateBoardIO>('board');

  constructor(readonly self: string) {}

  private record<T>(name: string, args: unknown[], value: T): Promise<T> {
    this.calls.push([name, ...args]);
    return this.refuse === undefined ? Promise.resolve(value) : Promise.reject(new Error(this.refuse));
  }

  sendMessage(to: string, content: string) {
    return this.record('sendMessage', [to, content], { id: 'm1' });
  }
  send(draft: OutgoingDraft) {
    return this.record('send', [draft], { id: 'm3' });
  }
  broadcast(content: string) {
    return this.record('broadcast', [content], { id: 'm2', recipients: ['alice', 'bob'] });
  }
  listTeammates() {
    return this.record('listTeammates', [], this.members);
  }
  spawnTeammate(spec: SpawnSpec): Promise<Spawned> {
    return this.record('spawnTeammate', [spec], { pid: 4242, model: spec.model ?? 'claude-sonnet-5-5' });
  }
  respawnTeammate(name: string) {
    return this.record('respawnTeammate', [name], { pid: 4343, cancelled: ['permission-0123456789'], planMode: true });
  }
  requestShutdown(teammate: string, reason: string | undefined) {
    return this.record('requestShutdown', [teammate, reason], { requestId: 'shutdown-1' });
  }
  async requestStatus(requestId: string) {
    this.calls.push(['requestStatus', requestId]);
    return this.requests.get(requestId);
  }
  reviewPlan(requestId: string, approve: boolean, feedback: string | undefined) {
    return this.record('reviewPlan', [requestId, approve, feedback], undefined);
  }
  answerShutdown(requestId: string, approve: boolean, reason: string | undefined) {
    return this.record('answerShutdown', [requestId, approve, reason], undefined);
  }
  submitPlan(plan: string) {
    return this.record('submitPlan', [plan], { requestId: 'plan-1' });
  }
  requestFinish(summary: string) {
    return this.record('requestFinish', [summary], { requestId: 'finish-1' });
  }
}

function setup(self: string) {
  const team = new FakeTeam(self);
  const io: LeadToolIO & TeammateToolIO = { files: unused<FileIO>('files'), shell: unused<ShellIO>('shell'), team, cwd: '/w', grant: READ_ONLY_GRANT };
  const run = (name: string, input: unknown) => (self === 'lead' ? runTool(leadTools({ reviewPlans: true }), name, input, io) : runTool(teammateTools({ planMode: true }), name, input, io));
  return { team, run };
}

const member = (name: string, role: string, status: Member['status']): Member => ({
  name, role, status, pid: null, model: null, created_at: '2025-01-01T00:00:00.000Z', status_since: '2025-01-01T00:00:00.000Z',
});

describe('messaging tools', () => {
  test('send_message and broadcast', async () => {
    const { team, run } = setup('alice');
    assert.deepEqual(await run('send_message', { to: 'lead', content: 'done' }), { content: 'Message sent to lead.' });
    assert.deepEqual(await run('broadcast', { content: 'heads up' }), { content: 'Broadcast sent to alice, bob.' });
    assert.deepEqual(team.calls, [['sendMessage', 'lead', 'done'], ['broadcast', 'heads up']]);
  });

  test('an invalid recipient is an input error, and nothing is sent', async () => {
    const { team, run } = setup('alice');
    const result = await run('send_message', { to: 'Bob Smith', content: 'x' });
    assert.equal(result.isError, true);
    assert.match(result.content, /^invalid input for send_message: to: agent name 'Bob Smith' must match/);
    assert.deepEqual(team.calls, []);
  });

  test("the team's refusal reaches the model as an error", async () => {
    const { team, run } = setup('alice');
    team.refuse = "unknown recipient 'bobb'; did you mean 'bob'?";
    assert.deepEqual(await run('send_message', { to: 'bobb', content: 'x' }), { content: "send_message failed: unknown recipient 'bobb'; did you mean 'bob'?", isError: true });
  });

  test('list_teammates marks the caller', async () => {
    const { team, run } = setup('lead');
    assert.deepEqual(await run('list_teammates', {}), { content: 'The team has no members yet.' });
    team.members = [member('lead', 'lead', 'working'), member('alice', 'tester', 'awaiting_approval')];
    assert.deepEqual(await run('list_teammates', {}), { content: '- lead (you): lead, working\n- alice: tester, awaiting approval' });
  });

  test('tools without input refuse unexpected fields', async () => {
    const { run } = setup('alice');
    assert.deepEqual(await run('list_teammates', { all: true }), { content: 'invalid input for list_teammates: input: Unrecognized key: "all"', isError: true });
  });
});

describe("the lead's tools", () => {
  test('spawn_teammate, plan_mode as a boolean or a string', async () => {
    const { team, run } = setup('lead');
    assert.deepEqual(await run('spawn_teammate', { name: 'alice', role: 'tester', prompt: 'test it' }), { content: 'Spawned alice (tester, claude-sonnet-5-5, pid 4242).' });
    assert.deepEqual(await run('spawn_teammate', { name: 'bob', role: 'dev', prompt: 'p', plan_mode: 'true' }), {
      content: 'Spawned bob (dev, claude-sonnet-5-5, pid 4242) in plan mode: it will submit a plan for approval before changing anything.',
    });
    assert.deepEqual(team.calls, [
      ['spawnTeammate', { name: 'alice', role: 'tester', prompt: 'test it', planMode: false }],
      ['spawnTeammate', { name: 'bob', role: 'dev', prompt: 'p', planMode: true }],
    ]);
    assert.equal((await run('spawn_teammate', { name: 'c', role: 'r', prompt: 'p', plan_mode: 'yes' })).isError, true);
  });

  test('spawn_teammate with a model of its own; a malformed id is refused, naming the rule', async () => {
    const { team, run } = setup('lead');
    assert.deepEqual(await run('spawn_teammate', { name: 'hal', role: 'checker', prompt: 'check', model: 'claude-haiku-4-5' }), { content: 'Spawned hal (checker, claude-haiku-4-5, pid 4242).' });
    assert.deepEqual(team.calls, [['spawnTeammate', { name: 'hal', role: 'checker', prompt: 'check', planMode: false, model: 'claude-haiku-4-5' }]]);
    const bad = await run('spawn_teammate', { name: 'x', role: 'r', prompt: 'p', model: 'haiku please' });
    assert.equal(bad.isError, true);
    assert.match(bad.content, /model: must be a model id such as claude-sonnet-5-5/);
    assert.equal(team.calls.length, 1, 'nothing was spawned');
  });

  test('spawn_teammate with a permission mode: handed on without an asker (so the lead bounds it); an unknown one is refused', async () => {
    const { team, run } = setup('lead');
    assert.deepEqual(await run('spawn_teammate', { name: 'ed', role: 'editor', prompt: 'edit', permission_mode: 'accept-edits' }), { content: 'Spawned ed (editor, claude-sonnet-5-5, pid 4242) in accept-edits mode.' });
    assert.deepEqual(team.calls, [['spawnTeammate', { name: 'ed', role: 'editor', prompt: 'edit', planMode: false, permissionMode: 'accept-edits' }]]);
    const bad = await run('spawn_teammate', { name: 'x', role: 'r', prompt: 'p', permission_mode: 'root' });
    assert.equal(bad.isError, true);
    assert.match(bad.content, /permission_mode/);
    const again = await run('spawn_teammate', { name: 'ed', respawn: true, permission_mode: 'bypass' });
    assert.match(again.content, /permission_mode: not given with respawn/);
    assert.equal(team.calls.length, 1);
  });

  test("spawn_teammate with isolation 'worktree': handed on and said; not with respawn; an unknown isolation is refused", async () => {
    const { team, run } = setup('lead');
    assert.deepEqual(await run('spawn_teammate', { name: 'wt', role: 'coder', prompt: 'p', isolation: 'worktree' }), { content: 'Spawned wt (coder, claude-sonnet-5-5, pid 4242) in its own git worktree.' });
    assert.deepEqual(team.calls, [['spawnTeammate', { name: 'wt', role: 'coder', prompt: 'p', planMode: false, isolation: 'worktree' }]]);
    assert.match((await run('spawn_teammate', { name: 'wt', respawn: true, isolation: 'worktree' })).content, /isolation: not given with respawn/);
    const bad = await run('spawn_teammate', { name: 'x', role: 'r', prompt: 'p', isolation: 'container' });
    assert.equal(bad.isError, true);
    assert.match(bad.content, /isolation/);
    assert.equal(team.calls.length, 1);
  });

  test('spawn_teammate with respawn: the name alone; a missing role or an extra field is named', async () => {
    const { team, run } = setup('lead');
    assert.deepEqual(await run('spawn_teammate', { name: 'alice', respawn: true }), {
      content: 'Respawned alice (pid 4343) in plan mode, with its earlier conversation; it was told these requests were cancelled: permission-0123456789.',
    });
    assert.deepEqual(team.calls, [['respawnTeammate', 'alice']]);
    const extra = await run('spawn_teammate', { name: 'alice', respawn: 'true', role: 'tester', prompt: 'again' });
    assert.equal(extra.isError, true);
    assert.match(extra.content, /role: not given with respawn/);
    assert.match(extra.content, /prompt: not given with respawn/);
    const missing = await run('spawn_teammate', { name: 'bob', prompt: 'p' });
    assert.equal(missing.isError, true);
    assert.match(missing.content, /role: required for a new teammate \(or set respawn: true/);
    assert.doesNotMatch(missing.content, /prompt/);
    assert.equal(team.calls.length, 1, 'nothing more was started');
  });

  test('shutdown_request, then shutdown_status looks its state up', async () => {
    const { team, run } = setup('lead');
    assert.deepEqual(await run('shutdown_request', { teammate: 'alice', reason: 'bob did it' }), { content: 'Shutdown request shutdown-1 sent to alice.' });
    const record: RequestRecord = {
      request_id: 'shutdown-1', kind: 'shutdown', from: 'lead', to: 'alice', state: 'pending', summary: 'bob did it',
      created_at: '2025-01-01T00:00:00.000Z', deadline_at: '2025-01-01T00:05:00.000Z',
    };
    team.requests.set('shutdown-1', record);
    assert.deepEqual(await run('shutdown_status', { request_id: 'shutdown-1' }), { content: 'Request shutdown-1 (shutdown, to alice) is pending, no answer yet.' });
    team.requests.set('shutdown-1', { ...record, state: 'rejected', note: 'tests still running' });
    assert.deepEqual(await run('shutdown_status', { request_id: 'shutdown-1' }), { content: 'Request shutdown-1 (shutdown, to alice) is rejected: tests still running.' });
    assert.deepEqual(await run('shutdown_status', { request_id: 'nope' }), { content: "No request with id 'nope'.", isError: true });
  });

  test('plan_approval_response reviews; approve accepts "true"/"false" strings', async () => {
    const { team, run } = setup('lead');
    assert.deepEqual(await run('plan_approval_response', { request_id: 'plan-1', approve: 'false', feedback: 'smaller batches' }), { content: 'Plan plan-1 rejected.' });
    assert.deepEqual(await run('plan_approval_response', { request_id: 'plan-2', approve: true }), { content: 'Plan plan-2 approved.' });
    assert.deepEqual(team.calls, [['reviewPlan', 'plan-1', false, 'smaller batches'], ['reviewPlan', 'plan-2', true, undefined]]);
    assert.deepEqual(await run('plan_approval_response', { request_id: 'plan-3', approve: 'no' }), { content: 'invalid input for plan_approval_response: approve: expected true or false', isError: true });
  });

  test('without plan review the lead has no plan_approval_response tool', async () => {
    const io: LeadToolIO = { files: unused<FileIO>('files'), shell: unused<ShellIO>('shell'), team: new FakeTeam('lead'), cwd: '/w', grant: READ_ONLY_GRANT };
    const result = await runTool(leadTools({ reviewPlans: false }), 'plan_approval_response', { request_id: 'p', approve: true }, io);
    assert.equal(result.isError, true);
    assert.match(result.content, /^unknown tool 'plan_approval_response'; available tools: bash, /);
  });
});

describe("a teammate's tools", () => {
  test('shutdown_response answers; approve accepts "true"/"false" strings', async () => {
    const { team, run } = setup('alice');
    assert.deepEqual(await run('shutdown_response', { request_id: 's1', approve: 'true' }), { content: 'Shutdown approved: finish this turn; the process ends after it.' });
    assert.deepEqual(await run('shutdown_response', { request_id: 's2', approve: 'false', reason: 'mid-migration' }), { content: 'Shutdown rejected; the lead has your reason.' });
    assert.deepEqual(team.calls, [['answerShutdown', 's1', true, undefined], ['answerShutdown', 's2', false, 'mid-migration']]);
  });

  test('rejecting a shutdown needs a reason', async () => {
    const { team, run } = setup('alice');
    for (const input of [{ request_id: 's', approve: false }, { request_id: 's', approve: 'false', reason: '  ' }]) {
      assert.deepEqual(await run('shutdown_response', input), {
        content: 'invalid input for shutdown_response: reason: reason is required when approve is false: say why you must keep working',
        isError: true,
      });
    }
    assert.deepEqual(team.calls, []);
  });

  test('plan_approval_request submits a plan', async () => {
    const { team, run } = setup('alice');
    assert.deepEqual(await run('plan_approval_request', { plan: '1. read\n2. change a.ts' }), { content: 'Plan submitted (request plan-1). Wait for the decision before changing anything.' });
    assert.deepEqual(team.calls, [['submitPlan', '1. read\n2. change a.ts']]);
    assert.deepEqual(await run('plan_approval_request', { request_id: 'x', approve: true }), {
      content: 'invalid input for plan_approval_request: plan: Invalid input: expected string, received undefined; input: Unrecognized keys: "request_id", "approve"',
      isError: true,
    });
  });

  test('finish_request reports the work done', async () => {
    const { team, run } = setup('alice');
    assert.deepEqual(await run('finish_request', { summary: 'tests pass' }), { content: 'Done reported to the lead (request finish-1). Wait: the answer reaches you as a notice.' });
    assert.deepEqual(team.calls, [['requestFinish', 'tests pass']]);
  });
});

describe('code review tools, for any member', () => {
  const reviewRecord = (from: string, to: string): RequestRecord => ({
    request_id: 'review-abc', kind: 'review', from, to, created_at: '2025-01-01T00:00:00.000Z', deadline_at: '2025-01-01T00:10:00.000Z', state: 'pending', summary: 'Parser fix',
  });

  test('code_review_request sends a code_review_request to the member named, with a fresh review id', async () => {
    const { team, run } = setup('alice');
    const result = await run('code_review_request', { to: 'bob', subject: 'Parser fix', files: ['src/parser.ts'] });
    assert.match(result.content, /^Review requested from bob \(request review-[0-9a-z]{10}\)\. Their answer reaches you as a notice/);
    const [[name, draft]] = team.calls as [[string, Record<string, unknown>]];
    assert.equal(name, 'send');
    assert.deepEqual({ ...draft, request_id: undefined }, { type: 'code_review_request', to: 'bob', request_id: undefined, subject: 'Parser fix', files: ['src/parser.ts'], diff: undefined });
    assert.match(String(draft.request_id), /^review-[0-9a-z]{10}$/);
  });

  test('code_review_request needs the files or a diff; the lead may ask too', async () => {
    const { team, run } = setup('lead');
    assert.deepEqual(await run('code_review_request', { to: 'bob', subject: 'x' }), { content: 'invalid input for code_review_request: files: give the files to review or a diff', isError: true });
    assert.equal((await run('code_review_request', { to: 'bob', subject: 'x', diff: '-a\n+b' })).isError, undefined);
    assert.equal(team.calls.length, 1);
  });

  test('code_review_response answers whoever asked, approve as a boolean or a string', async () => {
    const { team, run } = setup('bob');
    team.requests.set('review-abc', reviewRecord('alice', 'bob'));
    assert.deepEqual(await run('code_review_response', { request_id: 'review-abc', approve: 'false', comments: 'name the flag' }), { content: 'Requested changes sent to alice.' });
    assert.deepEqual(team.calls.at(-1), ['send', { type: 'code_review_response', to: 'alice', request_id: 'review-abc', approve: false, comments: 'name the flag' }]);
  });

  test('code_review_response refuses an id that is not a review request, and needs comments', async () => {
    const { team, run } = setup('bob');
    team.requests.set('plan-abc', { ...reviewRecord('alice', 'lead'), request_id: 'plan-abc', kind: 'plan' });
    assert.deepEqual(await run('code_review_response', { request_id: 'plan-abc', approve: true, comments: 'ok' }), {
      content: "code_review_response failed: no code review request has the id 'plan-abc'; answer with the request_id its notice gives",
      isError: true,
    });
    assert.deepEqual(await run('code_review_response', { request_id: 'review-abc', approve: true, comments: ' ' }), { content: 'invalid input for code_review_response: comments: comments is empty', isError: true });
    assert.ok(!team.calls.some(([name]) => name === 'send'));
  });
});
