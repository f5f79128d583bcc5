import { createDrainRunner, type DrainRunner, Refused, Replies, errorMessage } from '../lib/index.js';
import { LEAD, requestRole, isOwnRequest, type RequestRecord } from '../protocol/index.js';
import { SendRefused, type TeamBus, decisionDraft } from '../team/index.js';
import type { RequestStore, Subscription } from '../store/index.js';
import { alwaysKey } from '../policy/index.js';
import type { LeadInput, LeadState } from './state.js';
import type { PlanReviewer } from './routing.js';
import type { LeadTeammates } from './teammates.js';
import { interrupted, type PermissionAnswer } from '../teammate/index.js';

export type HumanDecision = { approve: boolean; note?: string; always?: boolean };

/**
 * The requests waiting on the lead's side: the human's approval queue, the lead's own
 * "always" permissions, and the deadline timer. A teammate's "always" travels back in the
 * signed permission_response and is kept by the teammate, which asks no more. Every decision, from the keyboard, another
 * terminal or the lead's model, goes through `decide`, and is signed by the bus.
 */
export class LeadDecisions {
  /** The lead's own tool calls waiting on the human (or the journal's deadline, which any process may sweep). */
  private readonly ownCalls = new Replies<PermissionAnswer>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /**
   * Tells the human's queue what is pending now, one look at a time, so that the queue
   * is never shown an older look after a newer one; changes during a look bring one more.
   */
  private readonly queueLooks: DrainRunner;

  /** The lead's own calls approved "always", for the policy to allow unasked. */
  get alwaysAllowed(): ReadonlySet<string> {
    return this.lead.state.always;
  }

  constructor(
    private readonly bus: TeamBus,
    private readonly requests: RequestStore,
    private readonly planReviewer: PlanReviewer,
    private readonly teammates: LeadTeammates,
    /** The lead: takes in what the requests say now (step.ts), and keeps the lead's own "always" calls. */
    private readonly lead: { step(input: LeadInput): Promise<void>; readonly state: LeadState },
  ) {
    this.queueLooks = createDrainRunner(
      async () => this.lead.step({ type: 'approvals', pending: await this.pendingForHuman() }),
      (error) => this.problem('reading the pending requests', error),
    );
  }

  /** Shown, not audited: the requests are the store's, and another look follows. */
  private problem(what: string, error: unknown): void {
    void this.lead.step({ type: 'problem', what: `${what} failed`, reason: errorMessage(error), audited: false });
  }

  /** Oldest first: what the human has to decide now. */
  async pendingForHuman(): Promise<RequestRecord[]> {
    const pending = await this.requests.list({ state: 'pending' });
    return pending.filter((r) => r.to === LEAD && requestRole(r.kind).humanDecides(this.planReviewer));
  }

  /** A request for the human arrived in the lead's mailbox. */
  arrived(): void {
    void this.changed();
  }

  /**
   * The lead's own risky tool call, asked of the human like a teammate's: it waits in the
   * queue, the deadline denies it, and an interrupt cancels it. ("Always" was applied by the
   * policy before it asked.)
   */
  async askForLead(tool: string, input: Record<string, unknown>, reason: string, signal: AbortSignal): Promise<PermissionAnswer> {
    const call = alwaysKey(tool, input);
    const record = await this.bus.openOwnRequest('permission', `${call} (${reason})`, { name: tool, input, reason });
    await this.lead.step({ type: 'own_call_asked', requestId: record.request_id, call });
    // "Sent" once the human's queue is told of it.
    const decided = await this.ownCalls.request(record.request_id, () => this.changed(), { signal, onAbort: interrupted });
    if (signal.aborted && (await this.requests.get(record.request_id))?.state === 'pending') {
      await this.bus.closeOwnRequest(record.request_id, 'cancelled', LEAD, 'the lead\'s turn was interrupted');
      await this.changed();
    }
    return decided;
  }

  async decide(requestId: string, decision: HumanDecision): Promise<RequestRecord> {
    await this.sweep();
    const record = await this.requests.get(requestId);
    if (!record) throw new Refused(`unknown request_id '${requestId}'`);
    try {
      if (isOwnRequest(record)) {
        await this.bus.closeOwnRequest(requestId, decision.approve ? 'approved' : 'rejected', 'human', decision.note);
        this.ownCalls.settle(requestId, { approve: decision.approve, feedback: decision.note });
      } else {
        const made = decisionDraft(record, { approve: decision.approve, note: decision.note, permissionMode: this.lead.state.mode, always: decision.always });
        if (!made.ok) throw new Refused(made.error);
        // A rule the human saved with this decision (`a`, then "for the project") reaches the
        // teammate first, in the same mailbox: its next identical call already sees the rule.
        await this.teammates.syncRules();
        await this.bus.send(made.draft);
      }
    } catch (error) {
      if (error instanceof SendRefused) throw new Refused(error.message);
      throw error;
    }
    await this.lead.step({ type: 'decided', requestId, approve: decision.approve, always: decision.always === true });
    if (record.kind === 'finish' && decision.approve) this.teammates.expectExit(record.from);
    await this.changed();
    return (await this.requests.get(requestId)) ?? record;
  }

  /** Expire what is overdue now and tell whoever expiry concerns. */
  async sweep(): Promise<void> {
    const expired = await this.bus.sweepExpired();
    await this.settleOwnDecidedElsewhere();
    if (expired.length > 0) await this.changed();
  }

  /** The lead's own requests that a deadline (swept by any process) ended: their calls are denied. */
  private async settleOwnDecidedElsewhere(): Promise<void> {
    for (const requestId of this.ownCalls.waitingIds()) {
      const record = await this.requests.get(requestId);
      if (!record || record.state === 'pending') continue;
      this.ownCalls.settle(requestId, { approve: record.state === 'approved', feedback: record.note });
      await this.lead.step({ type: 'decided', requestId, approve: record.state === 'approved', always: false });
    }
  }

  /**
   * Follow the requests (any process may change them): the lead announces what changed
   * (step.ts). The sweep timer follows every change: their deadlines are the lead's to enforce too.
   */
  async watch(): Promise<Subscription> {
    let first = true;
    return this.requests.watch(
      (records) => {
        void this.lead.step({ type: 'requests_changed', records, first });
        first = false;
        this.scheduleSweep(records);
      },
      (error) => this.problem('reading the requests', error),
    );
  }

  /** One timer, set for the nearest deadline among `records`: no polling. */
  private scheduleSweep(records: readonly RequestRecord[]): void {
    clearTimeout(this.sweepTimer);
    if (this.closed) return;
    const deadlines = records.filter((r) => r.state === 'pending').map((r) => Date.parse(r.deadline_at));
    if (deadlines.length === 0) return;
    const wait = Math.max(0, Math.min(...deadlines) - Date.now()) + 5;
    this.sweepTimer = setTimeout(() => {
      // Set again from the requests as the sweep left them, whether it expired any or failed.
      this.sweep()
        .catch((error: unknown) => this.problem('expiring overdue requests', error))
        .then(() => this.requests.list({ state: 'pending' }))
        .then((pending) => this.scheduleSweep(pending), (error: unknown) => this.problem('reading the requests', error));
    }, wait);
  }

  /** Something the human's queue shows changed: resolves once the queue has been told what is pending now. */
  private changed(): Promise<void> {
    this.queueLooks.hint();
    return this.queueLooks.idle();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.sweepTimer);
    await this.queueLooks.close();
  }
}
