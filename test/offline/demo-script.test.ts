import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_OFFLINE_SCRIPT } from '../../src/model/settings.js';
import { matchScript, type ScriptedReply } from '../../src/offline/match.js';
import type { RequestBlock, RequestMessage } from '../../src/offline/request.js';
import { loadScript } from '../../src/offline/script.js';
import { newMessageId } from '../../src/protocol/ids.js';
import { Envelope } from '../../src/protocol/messages.js';
import { renderForModel } from '../../src/protocol/notices.js';

/**
 * The default script, played turn by turn the way the agent loop will drive it, with
 * the real notice texts (renderForModel) arriving as user messages. Tool result texts
 * are made up here on purpose: the script must not depend on their wording.
 */

const script = loadScript(DEFAULT_OFFLINE_SCRIPT);

const LEAD_SYSTEM = "You are the lead of team 'demo'. You coordinate teammates.";
const ALICE_SYSTEM = "You are 'alice', role: coder, a member of team 'demo'. The lead is 'lead'. You start in plan mode: only read-only tools work until a plan you submit with plan_approval_request is approved.";
const BOB_SYSTEM = "You are 'bob', role: coder, a member of team 'demo'. The lead is 'lead'.";
const LEAD_TOOLS = ['spawn_teammate', 'send_message', 'shutdown_request', 'plan_approval_response', 'task_create', 'task_list', 'task_update'];
const TEAMMATE_TOOLS = ['plan_approval_request', 'write_file', 'read_file', 'bash', 'send_message', 'shutdown_response', 'task_list', 'task_claim', 'task_update'];
const REQUEST = 'Write up notes for the parser refactor';
/** alice's own task, as the board numbered it: not 1, so that nothing in the script can assume it. */
const ALICE_TASK = '5';

function notice(fields: Record<string, unknown>): string {
  return renderForModel(Envelope.parse({ id: newMessageId(), timestamp: '2026-12-01T12:00:00.000Z', ...fields }));
}

/** A teammate's first message: the real notice of its own task, as the lead assigns it. */
function assignment(to: string, taskId: string, prompt: string): string {
  return notice({ type: 'task_assignment', from: 'lead', to, task_id: taskId, subject: prompt, description: prompt });
}

/** One agent's conversation, advanced like the agent loop would; `fired` counts rules as one server does. */
class Agent {
  private readonly messages: RequestMessage[] = [];
  constructor(
    private readonly system: string,
    private readonly tools: string[],
    private readonly fired = new Map<number, number>(),
  ) {}

  /** A user-role text (the user's request or a protocol notice), then the model's reply. */
  hears(text: string): ScriptedReply {
    this.messages.push({ role: 'user', content: text });
    return this.reply();
  }

  /** The results of every tool the last reply called, then the model's next reply. */
  gets(result: string): ScriptedReply {
    const last = this.messages.at(-1);
    assert.ok(last && Array.isArray(last.content), 'the last reply called no tool');
    const results: RequestBlock[] = last.content.flatMap((block) =>
      block.type === 'tool_use' ? [{ type: 'tool_result' as const, tool_use_id: block.id, content: result }] : [],
    );
    this.messages.push({ role: 'user', content: results });
    return this.reply();
  }

  private reply(): ScriptedReply {
    const { rule, reply } = matchScript(script, { system: this.system, messages: this.messages, tools: this.tools }, (index) => this.fired.get(index) ?? 0);
    if (rule !== undefined) this.fired.set(rule, (this.fired.get(rule) ?? 0) + 1);
    assert.equal(reply.kind, 'reply');
    if (reply.kind !== 'reply') throw new Error('unreachable');
    const content: RequestBlock[] = [];
    if (reply.text !== undefined) content.push({ type: 'text', text: reply.text });
    for (const use of reply.toolUses) content.push({ type: 'tool_use', id: use.id, name: use.name, input: use.input });
    this.messages.push({ role: 'assistant', content });
    return reply;
  }
}

function call(reply: ScriptedReply, name: string): Record<string, unknown> {
  assert.deepEqual(
    reply.toolUses.map((use) => use.name),
    [name],
    `expected one ${name} call, got: ${reply.text ?? ''} ${JSON.stringify(reply.toolUses)}`,
  );
  return reply.toolUses[0]?.input ?? {};
}

function endsTurn(reply: ScriptedReply): void {
  assert.deepEqual(reply.toolUses, [], `expected a text-only reply, got ${JSON.stringify(reply.toolUses)}`);
  assert.ok(reply.text && !reply.text.startsWith('The offline script has no rule'), `fell back: ${reply.text}`);
}

/** The shared start: alice spawned in plan mode and her plan submitted. */
function started(): { lead: Agent; alice: Agent; plan: string } {
  const lead = new Agent(LEAD_SYSTEM, LEAD_TOOLS);
  const alice = new Agent(ALICE_SYSTEM, TEAMMATE_TOOLS);
  call(lead.hears(REQUEST), 'spawn_teammate');
  const plan = String(call(alice.hears(assignment('alice', ALICE_TASK, REQUEST)), 'plan_approval_request').plan);
  endsTurn(alice.gets('Plan submitted for approval.'));
  return { lead, alice, plan };
}

describe('demo script', () => {
  test('the lead claims nothing that did not happen: a failed spawn is said with its reason; a teammate outside plan mode does not plan', () => {
    const lead = new Agent(LEAD_SYSTEM, LEAD_TOOLS);
    call(lead.hears(REQUEST), 'spawn_teammate');
    const failed = lead.gets('cannot start alice: bubblewrap (bwrap) is not installed: commands in plan mode need the sandbox');
    endsTurn(failed);
    assert.equal(failed.text, 'The spawn failed, so no teammate is working on this: cannot start alice: bubblewrap (bwrap) is not installed: commands in plan mode need the sandbox');

    const again = new Agent(LEAD_SYSTEM, LEAD_TOOLS);
    call(again.hears(REQUEST), 'spawn_teammate');
    assert.equal(again.gets('Spawned alice (coder, offline-demo, pid 42) in plan mode: it will submit a plan for approval before changing anything.').text, "I've started alice in plan mode: they will send a plan for approval before changing anything.");

    const bob = new Agent(BOB_SYSTEM, TEAMMATE_TOOLS);
    assert.equal(call(bob.hears(REQUEST), 'write_file').path, 'notes.md');
  });

  test('the closing words are said once, when the teammate agreed to shut down; a task ending is only noted', () => {
    const lead = new Agent(LEAD_SYSTEM, LEAD_TOOLS);
    const ended = notice({ type: 'task_notification', from: 'alice', to: 'lead', task_id: '1', status: 'stopped', summary: 'stopped' });
    assert.equal(lead.hears(ended).text, "The teammate's task ended (stopped).");
    const agreed = notice({ type: 'shutdown_response', from: 'alice', to: 'lead', request_id: 'shutdown-9', approve: true });
    assert.match(lead.hears(agreed).text ?? '', /^alice agreed to shut down\. That was the whole demo/);
    assert.equal(lead.hears(agreed).text, 'alice agreed to shut down.');
  });

  test('the whole session: spawn, plan, approval, write, permission, report, shutdown', () => {
    const lead = new Agent(LEAD_SYSTEM, LEAD_TOOLS);
    const alice = new Agent(ALICE_SYSTEM, TEAMMATE_TOOLS);

    // (1) The lead hands the user's request to alice, in plan mode, then ends its turn.
    assert.deepEqual(call(lead.hears(REQUEST), 'spawn_teammate'), { name: 'alice', role: 'coder', prompt: REQUEST, plan_mode: true });
    endsTurn(lead.gets('Spawned alice (coder).'));

    // (2) alice, given her own task, plans first and waits.
    const plan = String(call(alice.hears(assignment('alice', ALICE_TASK, REQUEST)), 'plan_approval_request').plan);
    assert.match(plan, /^1\. .+\n2\. .+\n3\. .+$/);
    endsTurn(alice.gets('Plan sent to the lead; wait for the answer.'));

    // When the lead's model reviews plans (--plan-reviewer lead), it answers with plan_approval_response, quoting the request id.
    const planRequest = notice({ type: 'plan_approval_request', from: 'alice', to: 'lead', request_id: 'plan-42', plan });
    assert.deepEqual(call(lead.hears(planRequest), 'plan_approval_response'), {
      request_id: 'plan-42',
      approve: true,
      feedback: 'Looks good. Go ahead.',
    });
    endsTurn(lead.gets('Sent.'));

    // (3) Approved: alice writes notes.md, which records the task.
    const approved = notice({ type: 'plan_approval_response', from: 'lead', to: 'alice', request_id: 'plan-42', approve: true, permission_mode: 'default' });
    const write = call(alice.hears(approved), 'write_file');
    assert.equal(write.path, 'notes.md');
    assert.match(String(write.content), new RegExp(REQUEST));

    // (4) Then the command that needs permission: the human decides it, not the lead's model.
    assert.deepEqual(call(alice.gets('Wrote 412 bytes to notes.md'), 'bash'), { command: 'rm -rf build/cache' });

    // (5) alice closes her own task, by the id its notice gave, with her report, and ends her turn.
    const closed = call(alice.gets('(no output)\nexit code 0'), 'task_update');
    assert.deepEqual([closed.task_id, closed.status], [ALICE_TASK, 'completed']);
    assert.match(String(closed.result), /^Report: done\./);
    endsTurn(alice.gets(`Reported task ${ALICE_TASK} completed to the lead.`));

    // The completed task, with the report, makes the lead ask alice to shut down.
    const completion = notice({ type: 'task_notification', from: 'alice', to: 'lead', task_id: ALICE_TASK, status: 'completed', summary: `Task ${ALICE_TASK} "${REQUEST}" completed (alice)`, result: String(closed.result) });
    assert.deepEqual(call(lead.hears(completion), 'shutdown_request'), { teammate: 'alice', reason: 'work complete' });
    endsTurn(lead.gets('Shutdown request sent (shutdown-9).'));

    // (6) alice approves, quoting the request id from the notice.
    const shutdown = notice({ type: 'shutdown_request', from: 'lead', to: 'alice', request_id: 'shutdown-9', reason: 'work complete' });
    assert.deepEqual(call(alice.hears(shutdown), 'shutdown_response'), { request_id: 'shutdown-9', approve: true });
    endsTurn(alice.gets('Shutdown approved.'));

    const agreed = notice({ type: 'shutdown_response', from: 'alice', to: 'lead', request_id: 'shutdown-9', approve: true });
    const closing = lead.hears(agreed);
    endsTurn(closing);
    assert.match(closing.text ?? '', /That was the whole demo/);
  });

  test('a rejected plan is revised with the feedback and submitted again', () => {
    const { alice } = started();
    const rejected = notice({
      type: 'plan_approval_response',
      from: 'lead',
      to: 'alice',
      request_id: 'plan-1',
      approve: false,
      feedback: 'Also cover the error paths',
    });
    const revised = String(call(alice.hears(rejected), 'plan_approval_request').plan);
    assert.match(revised, /^1\. .*Also cover the error paths\n2\. .+\n3\. .+$/);

    // A rejection without feedback still gets a revision (the notice supplies a default).
    const bare = notice({ type: 'plan_approval_response', from: 'lead', to: 'alice', request_id: 'plan-2', approve: false });
    assert.match(String(call(alice.hears(bare), 'plan_approval_request').plan), /Plan needs revision/);
  });

  test('a refused command is reported as such', () => {
    const { alice } = started();
    const approved = notice({ type: 'plan_approval_response', from: 'lead', to: 'alice', request_id: 'plan-1', approve: true });
    call(alice.hears(approved), 'write_file');
    call(alice.gets('ok'), 'bash');
    const closed = call(alice.gets('Permission denied by the lead: not now.'), 'task_update');
    assert.equal(closed.task_id, ALICE_TASK);
    assert.match(String(closed.result), /^Report: .*permission was refused/);
  });

  test('a teammate without a plan step starts working right away', () => {
    const alice = new Agent(ALICE_SYSTEM, TEAMMATE_TOOLS.filter((name) => name !== 'plan_approval_request'));
    assert.equal(call(alice.hears(REQUEST), 'write_file').path, 'notes.md');
  });

  test('the lead acknowledges idle teammates and plain messages; later requests fall back', () => {
    const { lead } = started();
    endsTurn(lead.hears(notice({ type: 'idle_notification', from: 'alice', to: 'lead', reason: 'waiting for approval' })));
    endsTurn(lead.hears(notice({ type: 'message', from: 'alice', to: 'lead', text: 'Quick question about scope', summary: 'question' })));
    const second = lead.hears('Now refactor the lexer too');
    assert.deepEqual(second.toolUses, []);
    assert.match(second.text ?? '', /^The offline script has no rule for this \(agent lead, turn \d+/);
  });

  test('the board demo: the blocked task names the id the board gave the first, not a number the script assumed', () => {
    for (const [request, review] of [['Use the task board: our cache', 'Review notes.md'], ['Use the task board in worktrees: our cache', 'Write checklist.md']] as const) {
      const lead = new Agent(LEAD_SYSTEM, LEAD_TOOLS);
      assert.equal(call(lead.hears(request), 'task_create').subject, 'Write notes.md');
      const next = lead.gets('Created task 12:\n#12 [pending]: Write notes.md\n  Notes on our cache.');
      const [create, ...spawns] = next.toolUses;
      assert.deepEqual([create?.name, create?.input.subject, create?.input.blocked_by], ['task_create', review, ['12']]);
      assert.deepEqual(spawns.map((use) => use.name), ['spawn_teammate', 'spawn_teammate']);
      endsTurn(lead.gets('Created task 13.'));
    }
  });

  test('a board teammate closes its own task once nothing is left to claim, and waits while something is', () => {
    const prompt = 'Claim board tasks with task_claim and finish each with task_update.';
    const bob = new Agent(BOB_SYSTEM, TEAMMATE_TOOLS);
    call(bob.hears(assignment('bob', '9', prompt)), 'task_claim');
    assert.deepEqual(call(bob.gets('no task is ready for bob to claim'), 'task_list'), { status: 'pending' });
    endsTurn(bob.gets('#2 [pending] blocked by 1: Review notes.md'));
    call(bob.hears(notice({ type: 'message', from: 'lead', to: 'bob', text: 'Work is available on the task board: 2 "Review notes.md".', summary: 'work' })), 'task_claim');
    const finished = bob.gets('Claimed; it is yours now:\n#2 [in_progress] @bob: Review notes.md');
    assert.deepEqual(finished.toolUses.map((use) => [use.name, use.input.task_id ?? use.input.status]), [['task_update', '2'], ['task_list', 'pending']]);
    const own = call(bob.gets('No task on the board matches.'), 'task_update');
    assert.deepEqual([own.task_id, own.status], ['9', 'completed']);
    endsTurn(bob.gets('Reported task 9 completed to the lead.'));
  });
});
