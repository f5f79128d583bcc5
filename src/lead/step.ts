import { type Envelope, LEAD, type RequestRecord, asOpened, startsTurn } from '../protocol/index.js';
import type { HookVerdict } from '../hooks/index.js';
import type { LeadEffect, LeadStep } from './effects.js';
import { routeForLead } from './routing.js';
import { MAX_HOOK_REFUSALS, type CompletionReportEnvelope, type LeadInput, type LeadState } from './state.js';
import { assigned, boardChanged, boardRead } from './step-board.js';

/**
 * Pure: the lead's reaction to one input, as the state it leaves and the effects to run in
 * order. Like the teammate's harness (teammate/harness.ts): no process, file or clock is read
 * here; what an input needs of them, it carries.
 */
export function stepLead(state: LeadState, input: LeadInput): LeadStep {
  switch (input.type) {
    case 'received':
      return received(state, input.envelope, input.idleHooks);
    case 'sent':
      return sent(state, input.envelope);
    case 'idle_checked':
      return idleChecked(state, input.envelope, input.seen, input.verdict);
    case 'completion_verdict':
      return completionVerdict(state, input.owner, input.taskId, input.verdict);
    case 'completion_settled': {
      const { envelope, seen, outcome, unchecked } = input;
      const { from, task_id } = envelope;
      const settled = { ...state, checking: without(state.checking, `${from}:${task_id}`) };
      if (outcome.kind === 'blocked') {
        // Not shown as the teammate's message: the lead's model and the human hear only of completions the board records.
        const why = unchecked ? 'the team is stopping, so its task_completed hooks did not run' : `a task_completed hook refused ${from}'s completion, and told ${from} why`;
        return { state: heard(settled, from, false).state, effects: [{ type: 'emit', event: { type: 'notice', text: `task ${task_id} stays in progress: ${why}` } }] };
      }
      const failed: LeadEffect[] = outcome.kind === 'failed' || outcome.kind === 'error' ? [{ type: 'problem', what: `${from}'s completion of task ${task_id} was not recorded`, reason: outcome.error, audited: true }] : [];
      // Its idle notification, sent after this report, may have been routed meanwhile: this must not undo it.
      const routed = route(settled, envelope, settled.traffic.get(from) !== seen);
      return { state: routed.state, effects: [...failed, ...routed.effects] };
    }
    case 'board_changed':
      return boardChanged(state, input.tasks, input.problems, input.running);
    case 'board_read':
      return boardRead(state, input.name, input.tasks);
    case 'assigned':
      return assigned(state, input.name, input.taskId);
    case 'child_exited': {
      const { name, code, signal, why, crashed } = input;
      return { state, effects: [{ type: 'emit', event: { type: 'teammate_exit', name, code, signal, why, crashed } }] };
    }
    case 'child_compacted': {
      const { type: _, ...compaction } = input;
      return { state, effects: [{ type: 'emit', event: { type: 'teammate_compacted', ...compaction } }] };
    }
    case 'requests_changed':
      return requestsChanged(state, input.records, input.first);
    case 'own_call_asked':
      return { state: { ...state, ownCalls: new Map(state.ownCalls).set(input.requestId, input.call) }, effects: [] };
    case 'decided': {
      const call = state.ownCalls.get(input.requestId);
      const ownCalls = new Map(state.ownCalls);
      ownCalls.delete(input.requestId);
      const always = input.always && input.approve && call !== undefined ? new Set(state.always).add(call) : state.always;
      return { state: { ...state, ownCalls, always }, effects: [] };
    }
    case 'approvals':
      return { state, effects: [{ type: 'emit', event: { type: 'approvals', pending: input.pending } }] };
    case 'agent':
      return { state, effects: [{ type: 'emit', event: { type: 'agent', event: input.event } }] };
    case 'roster':
      return { state, effects: [{ type: 'emit', event: { type: 'team', members: input.members } }] };
    case 'problem':
      return { state, effects: [{ type: 'problem', what: input.what, reason: input.reason, audited: input.audited }] };
    case 'notice':
      return { state, effects: [{ type: 'emit', event: { type: 'notice', text: input.text } }] };
    case 'lead_mode':
      return leadMode(state, input.mode);
    case 'lead_model':
    case 'lead_session':
      return { state, effects: [{ type: 'emit', event: input }] };
    case 'stop':
      return { state: { ...state, stopping: true }, effects: [] };
  }
}

/** The lead's own mode changed: the REPL shows it, and the lead's model hears it with its next input (its prompt named the old one). */
function leadMode(state: LeadState, mode: LeadState['mode']): LeadStep {
  if (mode === state.mode) return { state, effects: [{ type: 'emit', event: { type: 'lead_mode', mode } }] };
  const tell: LeadEffect = { type: 'tell_model', text: `[mode] The human set your permission mode to ${mode}${mode === 'plan' ? ': your commands cannot write; explore and propose, change nothing' : ''}.`, later: true };
  return { state: { ...state, mode }, effects: [{ type: 'emit', event: { type: 'lead_mode', mode } }, tell] };
}

/** The lead's bus sent something: what starts a turn (an interrupt or new rules do not: the kind says) ends the teammate's idleness, and is traffic with it. */
function sent(state: LeadState, envelope: Envelope): LeadStep {
  if (!startsTurn(envelope)) return { state, effects: [] };
  const traffic = counted(state.traffic, envelope.to);
  if (envelope.from !== LEAD) return { state: { ...state, traffic }, effects: [] };
  const lastSent = new Map(state.lastSent).set(envelope.to, Date.parse(envelope.timestamp));
  return { state: { ...state, traffic, lastSent, idle: without(state.idle, envelope.to) }, effects: [] };
}

/**
 * A teammate's message reaching the lead. An idle notification waits for the teammate_idle
 * hooks: until they pass, the teammate counts as busy and the lead's model has not heard it
 * stopped, since a hook may send it back to work. A completion waits for the task_completed
 * hooks and the board. Other messages are routed at once; a plan or a permission request also
 * starts its notify-only hooks.
 */
function received(before: LeadState, envelope: Envelope, idleHooks: boolean): LeadStep {
  const state = { ...before, traffic: counted(before.traffic, envelope.from) };
  const seen = state.traffic.get(envelope.from) ?? 0;
  if (envelope.type === 'idle_notification' && idleHooks) return { state, effects: [{ type: 'check_idle', envelope, seen }] };
  if (envelope.type === 'task_notification' && envelope.status === 'completed') return reportedCompleted(state, envelope, seen);
  const routed = route(state, envelope, false);
  if (envelope.type === 'plan_approval_request') routed.effects.push({ type: 'notify_hooks', event: 'plan_submitted', envelope });
  if (envelope.type === 'permission_request') routed.effects.push({ type: 'notify_hooks', event: 'permission_requested', envelope });
  return routed;
}

/** A teammate reports a task completed: checked once at a time, and not past MAX_HOOK_REFUSALS refusals in a row. */
function reportedCompleted(state: LeadState, envelope: CompletionReportEnvelope, seen: number): LeadStep {
  const { from, task_id } = envelope;
  const key = `${from}:${task_id}`;
  const notice = (text: string): LeadStep => ({ state, effects: [{ type: 'emit', event: { type: 'notice', text } }] });
  // The same report again while the first is checked: the hooks (a test suite, say) run once, and the answer is the first's.
  if (state.checking.has(key)) return notice(`${from} reported task ${task_id} completed again while its checks run: the repeat is dropped`);
  if ((state.refusals.get(`task_completed:${key}`) ?? 0) >= MAX_HOOK_REFUSALS) {
    return notice(`${from} reported task ${task_id} completed again, after ${MAX_HOOK_REFUSALS} refusals in a row: dropped unchecked; complete, reassign or cancel it yourself`);
  }
  return { state: { ...state, checking: new Set(state.checking).add(key) }, effects: [{ type: 'check_completion', envelope, seen }] };
}

function idleChecked(state: LeadState, envelope: Envelope, seen: number, verdict: HookVerdict): LeadStep {
  const from = envelope.from;
  const key = `teammate_idle:${from}`;
  const inARow = tallied(state.refusals, key, verdict.blocked);
  const effects: LeadEffect[] = [];
  let refusals = inARow.refusals;
  if (verdict.blocked && inARow.count > MAX_HOOK_REFUSALS) {
    refusals = tallied(refusals, key, false).refusals;
    const why = `it refused ${from}'s stop ${MAX_HOOK_REFUSALS} times in a row, so this stop goes through (fix the hook, or tell ${from} what to do)`;
    effects.push({ type: 'problem', what: `hook on teammate_idle \`${verdict.command}\``, reason: why, audited: true });
  } else if (verdict.blocked) {
    effects.push(feedback(from, 'teammate_idle', verdict));
    return keptWorking({ ...state, refusals }, envelope, effects);
  }
  const next = { ...state, refusals };
  // Sent work or heard from meanwhile, it is not idle any more: counting it so could end `teams run` under it.
  if (next.traffic.get(from) !== seen) return keptWorking(next, envelope, effects);
  const routed = route(next, envelope, false);
  return { state: routed.state, effects: [...effects, ...routed.effects] };
}

/**
 * The task_completed hooks' verdict on `owner`'s task: a refusal sends the owner the hook's
 * stderr, and the last one allowed says so, to the teammate and to the human.
 */
function completionVerdict(state: LeadState, owner: string, taskId: string, verdict: HookVerdict): LeadStep {
  const inARow = tallied(state.refusals, `task_completed:${owner}:${taskId}`, verdict.blocked);
  const next = { ...state, refusals: inARow.refusals };
  if (!verdict.blocked) return { state: next, effects: [] };
  const last = inARow.count >= MAX_HOOK_REFUSALS;
  const stop = `\n\nThat is ${inARow.count} refusals in a row: do not report task ${taskId} completed again. Tell the lead what stands in the way, then wait.`;
  const effects = [feedback(owner, 'task_completed', last ? { ...verdict, feedback: verdict.feedback + stop } : verdict, taskId)];
  if (last) {
    const why = `it refused ${owner}'s completion of task ${taskId} ${inARow.count} times in a row; further reports of it are dropped: complete, reassign or cancel it yourself`;
    effects.push({ type: 'problem', what: `hook on task_completed \`${verdict.command}\``, reason: why, audited: true });
  }
  return { state: next, effects };
}

/** A blocking hook's feedback to the teammate, signed by the lead: its model reads it and goes back to work. */
function feedback(to: string, event: 'teammate_idle' | 'task_completed', verdict: { command: string; feedback: string }, taskId?: string): LeadEffect {
  const draft = { type: 'hook_feedback' as const, from: LEAD, to, event, command: verdict.command, feedback: verdict.feedback, ...(taskId === undefined ? {} : { task_id: taskId }) };
  return { type: 'send', draft, unsent: `the hook's feedback to ${to} was not sent` };
}

/** An idle notification a hook made stale: the human sees it came, and the teammate counts as working. */
function keptWorking(state: LeadState, envelope: Envelope, effects: LeadEffect[]): LeadStep {
  return { state: heard(state, envelope.from, false).state, effects: [...effects, { type: 'emit', event: { type: 'message', envelope } }] };
}

/**
 * A message the lead takes in: recorded before it is announced, since the event's subscribers
 * (the run's "are we done?" check) read whether the sender is idle, and an idle notification
 * with no summary causes no other event that would make them look again. A message routed
 * `late` was overtaken by later traffic with its sender, which says where it stands now: it
 * changes nothing of the sender's idle state.
 */
function route(state: LeadState, envelope: Envelope, late: boolean): LeadStep {
  const noted = late ? { state, effects: [] } : heard(state, envelope.from, envelope.type === 'idle_notification', envelope.timestamp);
  const effects: LeadEffect[] = [...noted.effects, { type: 'emit', event: { type: 'message', envelope } }];
  const route = routeForLead(envelope, state.planReviewer);
  if (route.expectExit) effects.push({ type: 'expect_exit', name: route.expectExit });
  if (route.forHuman) effects.push({ type: 'approvals_changed' });
  // While stopping, the human is leaving: a shutdown reply must not start a turn (and spend tokens).
  if (route.notice && !state.stopping) effects.push({ type: 'tell_model', text: route.notice });
  return { state: noted.state, effects };
}

/**
 * The lead heard from `from` (`sentAt`: when it was sent). An idle notification sent before the
 * lead's latest message to it says nothing of now: that message starts a turn, which ends with
 * a fresh one (a hook's feedback overtaking a stop, say).
 */
function heard(state: LeadState, from: string, idleNow: boolean, sentAt?: string): LeadStep {
  const stale = idleNow && sentAt !== undefined && Date.parse(sentAt) <= (state.lastSent.get(from) ?? -Infinity);
  if (!idleNow || stale) return { state: { ...state, idle: without(state.idle, from) }, effects: [] };
  const next = { ...state, idle: new Set(state.idle).add(from) };
  return { state: next, effects: state.stopping ? [] : [{ type: 'offer_work', name: from }] };
}

/**
 * Requests between teammates, which the lead takes no part in, are announced as they open and
 * close (one that opened and closed between two looks, as opened first). Those there as the
 * lead starts are an earlier session's, not news.
 */
function requestsChanged(state: LeadState, records: readonly RequestRecord[], first: boolean): LeadStep {
  const requests = new Map(state.requests);
  const effects: LeadEffect[] = [];
  for (const record of records) {
    const before = requests.get(record.request_id);
    if (before === record.state) continue;
    requests.set(record.request_id, record.state);
    if (first || record.from === LEAD || record.to === LEAD) continue;
    if (before === undefined && record.state !== 'pending') effects.push({ type: 'emit', event: { type: 'request', record: asOpened(record) } });
    effects.push({ type: 'emit', event: { type: 'request', record } });
  }
  return { state: { ...state, requests }, effects };
}

/** Count a verdict on `key`: the refusals in a row so far, 0 once the hook lets it pass. */
function tallied(refusals: ReadonlyMap<string, number>, key: string, blocked: boolean): { refusals: ReadonlyMap<string, number>; count: number } {
  const count = blocked ? (refusals.get(key) ?? 0) + 1 : 0;
  const next = new Map(refusals);
  if (count === 0) next.delete(key);
  else next.set(key, count);
  return { refusals: next, count };
}

function counted(traffic: ReadonlyMap<string, number>, name: string): ReadonlyMap<string, number> {
  return new Map(traffic).set(name, (traffic.get(name) ?? 0) + 1);
}

function without(set: ReadonlySet<string>, item: string): ReadonlySet<string> {
  if (!set.has(item)) return set;
  const next = new Set(set);
  next.delete(item);
  return next;
}
