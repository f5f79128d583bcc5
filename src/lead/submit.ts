import { Refused } from '../lib/index.js';
import { summarize, BROADCAST, LEAD, type Draft, type Envelope, type PermissionMode, type RequestRecord } from '../protocol/index.js';
import { HUMAN_ACTOR, requireStoredMember, type TeamStore } from '../store/index.js';
import { requirePaths, type TeamPaths } from '../team/index.js';
import { taskLine, type Spawned, type SpawnSpec } from '../tools/index.js';
import { worktreeAction } from '../worktree/index.js';
import type { HumanDecision } from './decisions.js';
import { parseLeadOp, type LeadOp, type LeadReply } from './ops.js';
import { describeRespawn } from './respawn.js';
import { removeListedRule } from './rule-list.js';
import { saveRule } from './rule-from-queue.js';

/**
 * What an op is carried out with: the lead's parts as they are (LeadRuntime passes its own),
 * narrowed to the calls ops make, so that a test can pass stand-ins for some of them.
 */
export type OpTargets = {
  readonly store: Pick<TeamStore, 'team'> & {
    readonly roster: Pick<TeamStore['roster'], 'load'>;
    readonly tasks: Pick<TeamStore['tasks'], 'create' | 'update'>;
    readonly audit: Pick<TeamStore['audit'], 'append'>;
  };
  /** The team's state on this machine: settings.json and leftover worktrees; none, and those ops are refused. */
  readonly paths: TeamPaths | undefined;
  readonly bus: { send(draft: Draft): Promise<Envelope> };
  readonly decisions: { decide(requestId: string, decision: HumanDecision): Promise<RequestRecord>; sweep(): Promise<void>; pendingForHuman(): Promise<RequestRecord[]> };
  readonly teammates: {
    spawn(spec: SpawnSpec): Promise<Spawned>;
    requestShutdown(name: string, reason: string | undefined): Promise<{ requestId: string }>;
    respawn(name: string): Promise<{ pid: number; cancelled: string[]; planMode: boolean }>;
    setMode(name: string, mode: PermissionMode, asker: 'human'): Promise<void>;
    tell(name: string, text: string): Promise<{ id: string }>;
    interrupt(name: string): Promise<{ id: string }>;
    compact(name: string, instructions?: string): void;
  };
  /** The human's changes to the lead itself (lead-controls.ts). */
  readonly lead: { setMode(mode: PermissionMode): Promise<void>; setModel(model: string): Promise<string>; clear(): Promise<string>; resume(id: string): Promise<{ records: number; problems: number }> };
  /** The lead's own model loop. */
  readonly loop: { readonly busy: boolean; interrupt(): void; compact(instructions?: string): void; push(text: string): void };
  stop(reason?: string): Promise<void>;
  forceStop(): Promise<void>;
};

/**
 * The one place a human's command to the lead is carried out, whoever sent it (the REPL,
 * another terminal, `teams run`). The op is checked against the schema here too, so that
 * every caller meets the same checks and the same words. A refusal rejects with `Refused`.
 */
export async function submitOp(raw: LeadOp, to: OpTargets): Promise<LeadReply> {
  const parsed = parseLeadOp(raw);
  if (!parsed.ok) throw new Refused(parsed.error);
  const op = parsed.op;
  switch (op.op) {
    case 'decide': {
      const record = await to.decisions.decide(op.request_id, { approve: op.approve, note: op.note, always: op.always });
      const message = `${op.approve ? 'approved' : 'rejected'} ${record.request_id} (${record.kind} request from ${record.from})`;
      return { op: op.op, message, request_id: record.request_id, kind: record.kind, from: record.from };
    }
    case 'spawn': {
      // The human's command: a mode is their grant, beyond the lead's own if they say so.
      const { pid, model, mode } = await to.teammates.spawn({
        name: op.name,
        ...(op.role === undefined ? {} : { role: op.role }),
        ...(op.agent === undefined ? {} : { agent: op.agent }),
        prompt: op.prompt ?? '',
        planMode: op.plan_mode ?? false,
        ...(op.model === undefined ? {} : { model: op.model }),
        ...(op.mode === undefined ? {} : { permissionMode: op.mode }),
        ...(op.worktree === true ? { isolation: 'worktree' as const } : {}),
        ...(op.host === undefined ? {} : { host: op.host }),
        asker: 'human',
      });
      const shownMode = op.mode ?? (op.agent === undefined ? undefined : mode);
      return { op: op.op, message: `spawned ${op.name}${op.agent ? ` as agent '${op.agent}'` : ''} (${model}, pid ${pid}${shownMode ? `, ${shownMode} mode` : ''}${op.worktree ? ', in its own worktree' : ''}${op.host ? `, on host ${op.host}` : ''})`, pid, model };
    }
    case 'send':
    case 'broadcast': {
      // Sent by the lead, so it carries the lead's signature.
      const recipient = op.op === 'send' ? op.to : BROADCAST;
      const summary = summarize(op.text);
      const sent = recipient === BROADCAST
        ? await to.bus.send({ type: 'broadcast', from: LEAD, to: BROADCAST, text: op.text, summary })
        : await to.bus.send({ type: 'message', from: LEAD, to: recipient, text: op.text, summary });
      return { op: op.op, message: recipient === BROADCAST ? `broadcast ${sent.id}` : `sent ${sent.id} to ${recipient}`, id: sent.id };
    }
    case 'tell': {
      const sent = await to.teammates.tell(op.name, op.text);
      return { op: op.op, message: `sent ${sent.id} to ${op.name} from the user`, id: sent.id };
    }
    case 'prompt':
      to.loop.push(op.text);
      return { op: op.op, message: 'the lead has your message' };
    case 'interrupt': {
      if (op.name === LEAD) {
        const busy = to.loop.busy;
        if (busy) to.loop.interrupt();
        return { op: op.op, message: busy ? 'interrupted the lead\'s turn' : 'the lead has no turn under way' };
      }
      const sent = await to.teammates.interrupt(op.name);
      return { op: op.op, message: `interrupted ${op.name} (${sent.id})`, id: sent.id };
    }
    case 'mode':
      await to.teammates.setMode(op.name, op.mode, 'human');
      return { op: op.op, message: `set ${op.name}'s permission mode to ${op.mode}` };
    case 'lead_mode':
      await to.lead.setMode(op.mode);
      return { op: op.op, message: `the lead's permission mode is ${op.mode}`, mode: op.mode };
    case 'lead_model':
      return { op: op.op, message: `the lead's next turns use ${await to.lead.setModel(op.model)}`, model: op.model };
    case 'clear': {
      const session = await to.lead.clear();
      return { op: op.op, message: `the lead starts a fresh conversation in session ${session}; teammates keep running`, session };
    }
    case 'resume': {
      const { records, problems } = await to.lead.resume(op.session);
      const setAside = problems === 0 ? '' : ` (${problems} unreadable line${problems === 1 ? '' : 's'} left out)`;
      return { op: op.op, message: `the lead goes on with session ${op.session} (${records} records${setAside}); teammates keep running`, session: op.session };
    }
    case 'compact': {
      if (op.name !== undefined) await requireStoredMember(to.store, op.name);
      if (op.name === undefined || op.name === LEAD) to.loop.compact(op.instructions);
      else to.teammates.compact(op.name, op.instructions);
      return { op: op.op, message: `asked ${op.name ?? LEAD} to compact its context (now if idle, else before its next model call)` };
    }
    case 'respawn': {
      const respawned = await to.teammates.respawn(op.name);
      return { op: op.op, message: describeRespawn(op.name, respawned), ...respawned };
    }
    case 'shutdown': {
      const { requestId } = await to.teammates.requestShutdown(op.name, op.reason);
      return { op: op.op, message: `asked ${op.name} to shut down (${requestId})`, requestId };
    }
    case 'quit':
      await (op.force ? to.forceStop() : to.stop(op.reason));
      return { op: op.op, message: 'the team has stopped' };
    case 'task_create': {
      const task = await to.store.tasks.create({ subject: op.subject, blocked_by: op.blocked_by }, HUMAN_ACTOR);
      return { op: op.op, message: `added to the board: ${taskLine(task)}` };
    }
    case 'task_assign':
    case 'task_cancel': {
      // Made as the human, through the same store calls as `teams task`: an assignment reaches
      // the teammate through the lead's board watch, as one made anywhere else does.
      if (op.op === 'task_assign') await requireStoredMember(to.store, op.owner);
      const change = op.op === 'task_assign' ? { op: 'set' as const, owner: op.owner } : { op: 'set' as const, status: 'cancelled' as const, note: op.note ?? 'cancelled by the user' };
      const result = await to.store.tasks.update(op.id, change, HUMAN_ACTOR);
      if (!result.ok) throw new Refused(result.error);
      const done = op.op === 'task_assign' ? `assigned to ${op.owner}` : 'cancelled';
      return { op: op.op, message: `${done}: ${taskLine(result.task)}` };
    }
    case 'diff':
    case 'merge':
    case 'discard':
      return { op: op.op, message: await worktreeAction(to.store, op.name, op.op, to.paths) };
    case 'permissions_add': {
      const message = await saveRule(op.rule, op.network === true, op.request_id, { home: requirePaths(to.paths).home, decisions: to.decisions });
      return { op: op.op, message };
    }
    case 'permissions_remove':
      return { op: op.op, message: removeListedRule(requirePaths(to.paths).home, op.rule) };
    case 'sweep':
      await to.decisions.sweep();
      return { op: op.op, message: 'swept' };
  }
}
