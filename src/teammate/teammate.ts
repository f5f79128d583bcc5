import { AgentLoop, findProjectInstructions, planModeNote, withAgentRole, protocolRules, renderPrompt, withProjectInstructions, type AgentEvent, journalSink, openConversation } from '../agent/index.js';
import { lazyModel, contextWindowOf } from '../model/index.js';
import { teammateProtocolState } from './protocol-state.js';
import { newRequestId, taskNotificationSummary, LEAD, resolveDeadlines } from '../protocol/index.js';
import { endSpawnTask } from './board-io.js';
import { alwaysKey, decideToolUse, RulesText } from '../policy/index.js';
import { realPathOfCall, runTool, toolSpecs, realFileIO, realShellIO, teammateToolsAllowed, type ToolResult, McpHub, McpServers, describeMcpProblem, type McpServerStatus } from '../tools/index.js';
import { budgetProblem, describeUsage, pricedTurn, hiddenFromAgents } from '../team/index.js';
import { addMemberUsage, setMemberMode, setMemberStatus, requireMember, type MailboxEvent, logLineOf, type LoggedEvent } from '../store/index.js';
import { createSerial, processStartTime, killProcessGroup, Replies, errorMessage } from '../lib/index.js';
import { launcherFor } from '../sandbox/index.js';
import { tellLead } from '../process/index.js';
import { interrupted, type PermissionAnswer } from './permission-answer.js';
import { teammateTeamIO } from './io.js';
import { initialHarness, step, type HarnessEffect, type HarnessEvent } from './harness.js';
import type { StartedTeammate, TeammateOptions } from './start.js';

/** How long past a permission's deadline a teammate still waits for the lead's expiry of it. */
const NO_EXPIRY_GRACE_MS = 30_000;

/**
 * One teammate process, once started (teammate-start.ts): its own model loop, woken by its
 * mailbox, speaking only through the bus. Protocol messages are handled here and reach the
 * model as notices; the policy decides every tool call; a decision that is not verifiably the
 * lead's is refused and audited. Resolves with the exit code once the teammate has stopped.
 */
export async function runTeammate(options: TeammateOptions, started: StartedTeammate): Promise<number> {
  const { store, paths, name, cwd } = options;
  const { config, bus, subscription, input } = started;
  const model = lazyModel(options.settings);
  // The lead checked them as it read them; a rule that fails here is a bug, and stops this teammate.
  // From then on the harness holds them, replaced by each verified rules_set from the lead.
  const rules = RulesText.parse(options.rules);

  /** A line of this teammate's log (its stderr, which the supervisor points at logs/<name>.log). */
  const log = (event: LoggedEvent) => process.stderr.write(logLineOf(event));
  /** Something that failed on the way and is not the model's to handle: in the teammate's log, and audited. */
  const problem = (what: string, error: unknown) => {
    const reason = errorMessage(error);
    log({ type: 'problem', what, reason });
    store.audit.append({ event: 'problem', agent: name, what, reason }).catch((failure: unknown) => {
      log({ type: 'problem', what: 'the audit log was not written', reason: String(failure) });
    });
  };
  // This teammate's roster writes, in the order it makes them: its last status must land last.
  const rosterWrites = createSerial((error) => problem('the roster was not updated', error));

  // The harness's one piece of state, changed only by `dispatch` through the pure `step`.
  let harness = initialHarness({ name, mode: options.permissionMode, planMode: options.planMode, rules });
  const dispatch = (event: HarnessEvent) => {
    const next = step(harness, event);
    harness = next.state;
    for (const effect of next.effects) perform(effect);
  };
  // No roster write before "ready": the lead recorded this process as starting, pid included,
  // when it started it, and the first status change records the model too.

  // Answered by the lead's response or, at the deadline, by its expiry (also a response).
  const permissions = new Replies<PermissionAnswer>();
  const team = teammateTeamIO(name, bus, store, { state: () => harness, dispatch });
  const hidden = hiddenFromAgents(paths);
  // The command groups running now. However this process ends (short of SIGKILL), they end
  // with it: the interrupt on a stop covers a call under way, this covers every other path out.
  const running = new Set<number>();
  process.on('exit', () => {
    for (const pgid of running) killProcessGroup(pgid);
  });
  // Each command gets the grant its decision gave it; in plan mode, and until a plan is
  // approved, the working directory stays read-only whatever the grant.
  const launch = launcherFor(options.sandbox, () => ({ writable: harness.mode !== 'plan' && harness.planApproved, hidden }));
  const groups = {
    onSpawn: (pgid: number) => {
      running.add(pgid);
      const startTime = processStartTime(pgid);
      if (startTime) tellLead({ type: 'command_started', pgid, start_time: startTime });
    },
    onExit: (pgid: number) => {
      running.delete(pgid);
      tellLead({ type: 'command_ended', pgid });
    },
  };
  const shell = realShellIO({ launch, ...groups });
  const io = { files: realFileIO(cwd, hidden), shell, team, cwd };
  // Its MCP servers, as the lead handed them over, each in this teammate's sandbox like a command
  // (and reaped with its commands); one that fails or stops is logged and audited, and its tools say why.
  // The lead checked them as it read them: like the rules, a failure here is a bug, and stops this teammate.
  const mcp = await McpHub.started(McpServers.parse(JSON.parse(options.mcpServers)), { launch, cwd, hooks: groups });
  const mcpProblem = (status: McpServerStatus) => {
    const { what, reason } = describeMcpProblem(status);
    problem(what, reason);
  };
  mcp.changes.subscribe(mcpProblem);
  mcp.statuses().filter((status) => status.state === 'failed').forEach(mcpProblem);
  // An agent definition's `tools` narrows them; the policy still decides every call (tool-filter.ts).
  // Its plan tool only while a plan is due: plan mode, from the start or set since (a mode_set), ends with an approval.
  const tools = () => [...teammateToolsAllowed(options.agent?.tools, { planMode: !harness.planApproved }), ...mcp.tools()];

  const execute = async (call: { id: string; name: string; input: Record<string, unknown> }, signal: AbortSignal): Promise<ToolResult> => {
    const decision = decideToolUse({ tool: call.name, input: call.input, mode: harness.mode, cwd, planApproved: harness.planApproved, alwaysAllowed: harness.alwaysAllowed, rules: harness.rules, realPath: await realPathOfCall(cwd, call.input) });
    let result: ToolResult;
    if (decision.action === 'deny') {
      result = { content: `Not allowed: ${decision.reason}`, isError: true };
    } else if (decision.action === 'ask') {
      const requestId = newRequestId('permission');
      const decided = await permissions.request(
        requestId,
        async () => {
          await bus.send({ type: 'permission_request', from: name, to: LEAD, request_id: requestId, tool_name: call.name, tool_input: call.input, reason: decision.reason });
          dispatch({ type: 'status', status: 'awaiting_approval' });
        },
        {
          signal,
          onAbort: interrupted,
          // The lead denies it at the deadline; should that denial never come (a wedged lead), stop waiting anyway.
          deadlineAt: Date.now() + resolveDeadlines(config.deadlines_ms).permission + NO_EXPIRY_GRACE_MS,
          onTimeout: () => ({ approve: false, feedback: 'no decision and no expiry came from the lead' }),
        },
      );
      dispatch({ type: 'status', status: 'working' });
      // Keyed by the call this teammate itself asked about, never by anything its model says.
      if (decided.approve && decided.always) dispatch({ type: 'granted_always', call: alwaysKey(call.name, call.input) });
      result = decided.approve
        ? await runTool(tools(), call.name, call.input, { ...io, grant: decision.grant }, signal)
        : { content: `Permission denied${decided.feedback ? `: ${decided.feedback}` : ''}. Do not retry the same command; find another way or ask the lead.`, isError: true };
    } else {
      result = await runTool(tools(), call.name, call.input, { ...io, grant: decision.grant }, signal);
    }
    dispatch({ type: 'tool_done' });
    return result;
  };

  const system = withProjectInstructions(withAgentRole(renderPrompt('teammate.md', {
    name,
    role: requireMember(config, name).role,
    team: store.team,
    cwd,
    protocol_rules: protocolRules(),
    mode: harness.mode,
    plan_mode_note: planModeNote(options.planMode),
  }), options.agent), findProjectInstructions(cwd));
  // Its conversation, journaled as it goes; a respawned teammate goes on with the old one.
  const { session, resume } = options.journal;
  const sink = journalSink(store.sessions, session, name);
  const opened = await openConversation({ sessions: store.sessions, id: session, agent: name, resume, sink, journalExists: true });
  for (const bad of opened.problems) problem(`set aside ${bad.ref}`, bad.reason);
  const loop = new AgentLoop({
    conversation: opened.conversation,
    system,
    tools: () => toolSpecs(tools()),
    model: model.client,
    execute,
    beforeModelCall: async () => budgetProblem(await store.roster.load()),
    // After submitting a plan or asking to finish, the turn ends until the answer (or other news) comes.
    waiting: () => harness.awaiting !== undefined,
    context: { window: contextWindowOf(options.settings.model, options.settings.contextWindow), protocolState: () => teammateProtocolState(harness) },
  });

  let finished: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => (finished = resolve));
  const runStop = async (how: 'completed' | 'stopped', lastText: string, task: { id: string; subject: string }) => {
    dispatch({ type: 'status', status: 'shutting_down' });
    // A command still running (the lead went away mid-call) is ended with its whole group: its
    // abort kills it. Sandboxed, it would die with this process anyway; with --no-sandbox it
    // would not, and the supervisor that would reap it may be gone.
    loop.interrupt();
    await subscription.close();
    const notify = await endSpawnTask(store.tasks, name, task.id, how, lastText).catch((error: unknown) => {
      problem('its task was not ended on the board', error);
      return true;
    });
    if (notify && process.connected !== false) {
      await bus
        .send({ type: 'task_notification', from: name, to: LEAD, task_id: task.id, status: how, summary: taskNotificationSummary(how, task.subject), result: lastText || undefined })
        .catch((error: unknown) => problem('the task notification was not sent', error));
    }
    dispatch({ type: 'status', status: 'shutdown' });
    // Queued after every write of its usage, so the totals are the final ones.
    await rosterWrites(async () => {
      const member = (await store.roster.load())?.members.find((m) => m.name === name);
      if (member) await store.audit.append({ event: 'member', name, change: `stopped (${how}); used ${describeUsage(member)}` });
    });
    await mcp.close();
    await model.close();
    finished(0);
  };

  function perform(effect: HarnessEffect): void {
    switch (effect.type) {
      case 'status':
        log({ type: 'status', status: effect.status });
        // A stopped teammate holds no pid: the roster never points at a process that is gone.
        void rosterWrites(() => setMemberStatus(store.roster, name, effect.status, { pid: effect.status === 'shutdown' ? null : process.pid, model: options.settings.model }));
        return;
      case 'mode':
        void rosterWrites(() => setMemberMode(store.roster, name, effect.mode));
        return;
      case 'notice':
        loop.push(effect.text);
        return;
      case 'problem':
        problem(effect.what, effect.reason);
        return;
      case 'permission':
        permissions.settle(effect.requestId, effect.answer);
        return;
      case 'idle_notification':
        bus
          .send({ type: 'idle_notification', from: name, to: LEAD, reason: effect.reason ?? 'waiting for instructions', summary: effect.summary })
          .catch((error: unknown) => problem('the idle notification was not sent', error));
        return;
      case 'interrupt':
        loop.interrupt();
        return;
      case 'halt':
        loop.halt(effect.note);
        return;
      case 'stop':
        runStop(effect.how, effect.lastText, effect.task).catch((error: unknown) => {
          problem('the stop failed', error);
          finished(1);
        });
        return;
    }
  }

  loop.subscribe((event: AgentEvent) => {
    // Type-checked against the log's schema: an AgentEvent it lacks does not compile.
    log(event);
    if (event.type === 'turn_start') dispatch({ type: 'turn_start' });
    if (event.type === 'turn_end' || event.type === 'compaction_skipped') void rosterWrites(() => addMemberUsage(store.roster, name, pricedTurn(event.model, event.usage)));
    if (event.type === 'idle') dispatch({ type: 'idle', lastText: event.lastText });
    if (event.type === 'compacted') {
      const { before, after, reason } = event;
      void rosterWrites(() => addMemberUsage(store.roster, name, pricedTurn(event.model, event.usage)));
      store.audit.append({ event: 'compacted', agent: name, before, after, reason }).catch((error: unknown) => problem('the compaction was not audited', error));
      tellLead({ type: 'compacted', before, after, reason });
    }
  });

  const mail = (event: MailboxEvent) => {
    if (event.type === 'delivered') for (const envelope of event.messages) dispatch({ type: 'delivered', envelope, busy: loop.busy });
    else problem(`set aside ${event.problem.ref}`, event.problem.reason);
  };
  // What came in since "ready" first (the task, at least), in order; then the rest as it comes.
  input.attach((item) => {
    if (item.type === 'mail') mail(item.event);
    else if (item.type === 'compact') loop.compact(item.instructions);
    else dispatch({ type: 'stop', how: 'stopped', lastText: item.lastText });
  });
  dispatch({ type: 'ready' });
  model.preload();
  return done;
}
