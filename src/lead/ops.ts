import * as z from 'zod';
import { AgentName, Recipient, PermissionMode, RequestId, didYouMean, type RequestRecord } from '../protocol/index.js';
import { SessionId, TaskId } from '../store/index.js';
import { ModelId } from '../model/index.js';
import { parseRule } from '../policy/index.js';
import { describeIssues } from '../lib/index.js';

const Text = z.string().min(1, 'must not be empty');

/** A permission rule as the human writes it, `Bash(npm test:*)`: checked by the policy's own parser. */
const RuleText = z.string().superRefine((text, ctx) => {
  const rule = parseRule(text);
  if (typeof rule === 'string') ctx.addIssue({ code: 'custom', message: `invalid rule: ${rule}` });
});

/**
 * Everything the human may command the lead to do, from the REPL, from another terminal over
 * the control socket, or from `teams run`: one list, one set of checks, one dispatcher
 * (submit.ts). Snake case: this is also the control socket's wire format. What the lead's
 * model does goes through its tools instead; these are the human's.
 */
export const LeadOp = z.discriminatedUnion('op', [
  z.object({ op: z.literal('decide'), request_id: RequestId, approve: z.boolean(), note: z.string().optional(), always: z.boolean().optional() }),
  /** `agent`: an agent definition (.teams/agents/) giving what is not given here, the role included. */
  z.object({ op: z.literal('spawn'), name: AgentName, role: z.string().min(1).optional(), agent: AgentName.optional(), prompt: z.string().optional(), plan_mode: z.boolean().optional(), model: ModelId.optional(), mode: PermissionMode.optional(), worktree: z.boolean().optional(), host: AgentName.optional() }),
  /** The lead's own message, signed by it (`to: "*"` broadcasts). */
  z.object({ op: z.literal('send'), to: Recipient, text: Text }),
  z.object({ op: z.literal('broadcast'), text: Text }),
  /** The human's own words to one running teammate: a user_message the lead signs. */
  z.object({ op: z.literal('tell'), name: AgentName, text: Text }),
  /** The human's words to the lead: its next turn. */
  z.object({ op: z.literal('prompt'), text: Text }),
  /** Stop a running teammate's model call or tool (a signed interrupt), or the lead's own turn (`lead`). */
  z.object({ op: z.literal('interrupt'), name: AgentName }),
  /** The human changes a running teammate's permission mode: a mode_set the lead signs. */
  z.object({ op: z.literal('mode'), name: AgentName, mode: PermissionMode }),
  /** The lead's own permission mode (Shift+Tab): never bypass, which only a start in it gives. */
  z.object({ op: z.literal('lead_mode'), mode: PermissionMode }),
  /** The lead's model for its next turns (`/model <id>`). */
  z.object({ op: z.literal('lead_model'), model: ModelId }),
  /** A fresh conversation for the lead in a new session (`/clear`); teammates keep running. */
  z.object({ op: z.literal('clear') }),
  /** The lead goes on with an earlier session's conversation (`/resume <id>`), journaling on in it. */
  z.object({ op: z.literal('resume'), session: SessionId }),
  /** The lead's conversation (no name, or `lead`) or a running teammate's. */
  z.object({ op: z.literal('compact'), name: AgentName.optional(), instructions: z.string().max(2000).optional() }),
  /** Start a teammate that crashed or was shut down again, with its journaled conversation. */
  z.object({ op: z.literal('respawn'), name: AgentName }),
  /** Ask one teammate to shut down. */
  z.object({ op: z.literal('shutdown'), name: AgentName, reason: z.string().optional() }),
  /** Shut the whole team down (`force`: end teammates' process groups now). */
  z.object({ op: z.literal('quit'), reason: z.string().optional(), force: z.boolean().optional() }),
  z.object({ op: z.literal('task_create'), subject: z.string(), blocked_by: z.array(TaskId).optional() }),
  z.object({ op: z.literal('task_assign'), id: TaskId, owner: AgentName }),
  z.object({ op: z.literal('task_cancel'), id: TaskId, note: z.string().optional() }),
  /** A teammate's worktree: its changes shown, merged into the lead's branch, or thrown away. */
  z.object({ op: z.literal('diff'), name: AgentName }),
  z.object({ op: z.literal('merge'), name: AgentName }),
  z.object({ op: z.literal('discard'), name: AgentName }),
  /**
   * A project rule saved to settings.json (`network`: a bash rule that may reach the network
   * too). `request_id`: the request it was made from, approved with it; then every other
   * pending command it covers is approved too (rule-settles.ts).
   */
  z.object({ op: z.literal('permissions_add'), rule: RuleText, network: z.boolean().optional(), request_id: RequestId.optional() }),
  /** A project rule removed: its text, or its number as the REPL's /permissions lists them now. */
  z.object({ op: z.literal('permissions_remove'), rule: Text }),
  /** Expire what is overdue: only the process holding the lead's key writes those decisions. */
  z.object({ op: z.literal('sweep') }),
]);
export type LeadOp = z.infer<typeof LeadOp>;
export type LeadOpName = LeadOp['op'];

export const LEAD_OPS: readonly LeadOpName[] = LeadOp.options.map((option) => option.shape.op.value);

/**
 * What the lead did, with its words for it (`message`, what another terminal prints); callers
 * with words of their own (the REPL) use the facts beside it. A refused op is never a reply:
 * submit rejects with a `Refused`.
 */
export type LeadReply =
  | { op: 'decide'; message: string; request_id: string; kind: string; from: string }
  | { op: 'spawn'; message: string; pid: number; model: string }
  | { op: 'send' | 'broadcast' | 'tell'; message: string; id: string }
  /** `id` is the signed interrupt's; none when the lead's own turn was interrupted (or it had none). */
  | { op: 'interrupt'; message: string; id?: string }
  | { op: 'respawn'; message: string; pid: number; cancelled: string[]; planMode: boolean }
  | { op: 'lead_mode'; message: string; mode: PermissionMode }
  | { op: 'lead_model'; message: string; model: string }
  | { op: 'clear' | 'resume'; message: string; session: string }
  | { op: 'shutdown'; message: string; requestId: string }
  | { op: 'mode' | 'compact' | 'prompt' | 'quit' | 'sweep' | 'task_create' | 'task_assign' | 'task_cancel' | 'diff' | 'merge' | 'discard' | 'permissions_add' | 'permissions_remove'; message: string };

/** What the REPL reads of the lead as it is now: whether its turn is under way, and what waits on the human (oldest first). */
/** The lead now: mid-turn or not, its permission mode, and what waits on the human. */
export type LeadSnapshot = { busy: boolean; mode: PermissionMode; pending: RequestRecord[] };

export type ParsedOp = { ok: true; op: LeadOp } | { ok: false; error: string };

/**
 * An op from anywhere (a socket line, a test, the REPL): checked against the one schema. An
 * unknown op is named with the ops there are, not zod's words for a discriminator.
 */
export function parseLeadOp(raw: unknown): ParsedOp {
  const name = typeof raw === 'object' && raw !== null && 'op' in raw ? raw.op : undefined;
  if (typeof name !== 'string' || !(LEAD_OPS as readonly string[]).includes(name)) {
    const given = typeof name === 'string' ? `unknown op '${name}'` : 'no op';
    const hint = typeof name === 'string' ? didYouMean(name, LEAD_OPS, (n) => n) : undefined;
    return { ok: false, error: `${given}${hint ? ` (${hint})` : ''}; the ops: ${LEAD_OPS.join(', ')}` };
  }
  const parsed = LeadOp.safeParse(raw);
  return parsed.success ? { ok: true, op: parsed.data } : { ok: false, error: `${name}: ${describeIssues(parsed.error, 'op')}` };
}

/** The reply to an op named `K`. */
export type ReplyTo<K extends LeadOpName> = LeadReply extends infer R ? (R extends { op: infer O } ? (K extends O ? R : never) : never) : never;

/** A reply narrowed to the op it answers: a stand-in that answers another op is a bug, said so. */
export function replyTo<K extends LeadOpName>(op: K, reply: LeadReply): ReplyTo<K> {
  if (reply.op !== op) throw new Error(`the lead answered a ${op} op with a ${reply.op} reply`);
  return reply as ReplyTo<K>;
}
