import { newMessageId, newRequestId, Envelope, summarize, type Draft, classify, specOf, humanLine, checkSend, type RuleName, BROADCAST, LEAD, type Signer, isOwnRequest, type RequestRecord, deadlineAt, expiryOutcome } from '../protocol/index.js';
import { oneLine, EventStream, Refused, describeIssues } from '../lib/index.js';
import { memberNames, StoreClock, type TeamConfig, type TeamStore } from '../store/index.js';

/** A send refused by a rule: nothing was written. */
export class SendRefused extends Refused {
  constructor(
    readonly rule: RuleName | 'schema' | 'no_team',
    message: string,
  ) {
    super(message);
    this.name = 'SendRefused';
  }
}

/** What a request is about, as its kind says: what the decider needs to see. */
function requestSubject(envelope: Envelope): string {
  const role = specOf(envelope.type).role;
  return role.class === 'request' ? role.subject(envelope) : '';
}

/** What the record keeps of an answer: the feedback, the reason, the comments. */
function responseNote(envelope: Envelope): string | undefined {
  const role = specOf(envelope.type).role;
  return role.class === 'response' ? role.note(envelope) : undefined;
}

function envelopeRequestId(envelope: Envelope): string | undefined {
  return 'request_id' in envelope ? envelope.request_id : undefined;
}

/**
 * The one path every message takes: stamp, parse, check the rules against the roster and
 * the requests, record the request or its decision, deliver, audit, all in the team store.
 * A refused message writes nothing; the request is recorded before the mailbox is written,
 * so that a recipient never sees a request the store does not know.
 */
export class TeamBus {
  /** Every message this bus delivered (expiry's included), for the views that follow them as they go. */
  readonly sent = new EventStream<Envelope>();

  constructor(
    private readonly store: TeamStore,
    /**
     * The sending agent's own key: every message it sends is signed, so that recipients can
     * tell who really wrote it. Without one (the CLI, with no lead running) messages go
     * unsigned, and agents refuse them.
     */
    private readonly signer?: Signer,
    /** What stamps messages and judges deadlines: the team's one clock, as this process reads it. */
    readonly clock: StoreClock = new StoreClock(store),
  ) {}

  private seal(envelope: Envelope): Envelope {
    return this.signer ? this.signer.sign(envelope) : envelope;
  }

  async send(draft: Draft): Promise<Envelope> {
    const parsed = Envelope.safeParse({ ...draft, id: newMessageId(), timestamp: this.clock.stamp() });
    if (!parsed.success) {
      throw new SendRefused('schema', describeIssues(parsed.error, 'message'));
    }
    const envelope = parsed.data;
    const team = await this.store.roster.load();
    if (!team) throw new SendRefused('no_team', `no team '${this.store.team}'`);
    const members = memberNames(team);
    // The rules look up only the request the envelope names: fetched once, before they run.
    const requestId = envelopeRequestId(envelope);
    const named = requestId === undefined ? undefined : await this.store.requests.get(requestId);
    const verdict = checkSend(envelope, { team: this.store.team, members, lookupRequest: (id) => (id === requestId ? named : undefined) });
    if (!verdict.ok) throw new SendRefused(verdict.rule, verdict.error);

    const requestChange = await this.recordRequest(envelope, team);
    const outgoing = this.seal(envelope);
    const recipients = envelope.to === BROADCAST ? members.filter((m) => m !== envelope.from) : [envelope.to];
    for (const recipient of recipients) await this.store.mailboxes.deliver(recipient, outgoing);
    await this.auditMessage(outgoing);
    if (requestChange) await this.auditRequest(requestChange.record, requestChange.from, envelope.from);
    this.sent.emit(outgoing);
    return outgoing;
  }

  private async recordRequest(envelope: Envelope, team: TeamConfig): Promise<{ record: RequestRecord; from: RequestRecord['state'] | null } | undefined> {
    const kind = classify(envelope.type);
    const requestId = envelopeRequestId(envelope);
    if (requestId === undefined) return undefined;
    if (kind.class === 'request') {
      const record = await this.store.requests.open({
        request_id: requestId,
        kind: kind.kind,
        from: envelope.from,
        to: envelope.to,
        created_at: envelope.timestamp,
        deadline_at: deadlineAt(kind.kind, envelope.timestamp, team.deadlines_ms),
        summary: requestSubject(envelope),
        ...(envelope.type === 'permission_request' ? { tool: { name: envelope.tool_name, input: envelope.tool_input, reason: envelope.reason } } : {}),
      });
      return { record, from: null };
    }
    if (kind.class === 'response' && 'approve' in envelope) {
      const result = await this.store.requests.transition(requestId, envelope.approve ? 'approved' : 'rejected', envelope.from, responseNote(envelope));
      // Another process decided first (a deadline, a second terminal): its decision stands.
      if (!result.ok) throw new SendRefused('request_not_pending', result.error);
      return { record: result.record, from: 'pending' };
    }
    return undefined;
  }

  /**
   * A request the lead's own harness makes of the human (a risky tool call of the lead's):
   * recorded and audited like any other, so the queue, `teams requests` and the deadline
   * treat it the same, but never mailed: the one waiting for it is in the lead's process.
   */
  async openOwnRequest(kind: 'permission', summary: string, tool?: RequestRecord['tool']): Promise<RequestRecord> {
    const team = await this.store.roster.load();
    const created_at = this.clock.stamp();
    const deadline_at = deadlineAt(kind, created_at, team?.deadlines_ms);
    const record = await this.store.requests.open({ request_id: newRequestId(kind), kind, from: LEAD, to: LEAD, created_at, deadline_at, summary, ...(tool ? { tool } : {}) });
    await this.auditRequest(record, null, LEAD);
    return record;
  }

  /** Decide or cancel one of the lead's own requests; refused if it is no longer pending. */
  async closeOwnRequest(requestId: string, to: 'approved' | 'rejected' | 'cancelled', by: string, note?: string): Promise<RequestRecord> {
    const record = await this.store.requests.get(requestId);
    if (!record || !isOwnRequest(record)) throw new SendRefused('unknown_request_id', `'${requestId}' is not one of the lead's own requests`);
    const result = await this.store.requests.transition(requestId, to, by, note);
    if (!result.ok) throw new SendRefused('request_not_pending', result.error);
    await this.auditRequest(result.record, 'pending', by);
    return result.record;
  }

  /**
   * Expire every overdue request and deliver what expiry means for it. Only the process
   * acting for the lead runs this; several may race, and the store picks one winner.
   */
  async sweepExpired(now = this.clock.nowMs()): Promise<RequestRecord[]> {
    const expired: RequestRecord[] = [];
    const pending = await this.store.requests.list({ state: 'pending' });
    for (const overdue of pending.filter((record) => Date.parse(record.deadline_at) <= now)) {
      const outcome = expiryOutcome(overdue);
      const result = await this.store.requests.transition(overdue.request_id, 'expired', 'deadline', outcome.note);
      if (!result.ok) continue;
      expired.push(result.record);
      await this.auditRequest(result.record, 'pending', 'deadline');
      // Nobody to mail: the lead's waiting call reads the expiry from the store.
      if (isOwnRequest(overdue)) continue;
      // The sweeper acts for the lead: a lapsed request is answered as its kind says (a plan,
      // permission or finish request is the lead's refusal), or the lead tells someone in a note.
      const draft: Draft = outcome.response ?? {
        type: 'message',
        from: LEAD,
        to: outcome.recipient,
        text: outcome.notice,
        summary: summarize(outcome.notice),
      };
      const envelope = this.seal(Envelope.parse({ ...draft, id: newMessageId(now), timestamp: new Date(now).toISOString() }));
      await this.store.mailboxes.deliver(outcome.recipient, envelope);
      await this.auditMessage(envelope);
      this.sent.emit(envelope);
    }
    return expired;
  }

  /**
   * Cancel every pending request `agent` made or must answer: it is gone, so nobody will.
   * `only` narrows it (an interrupted teammate's permission requests: its calls no longer wait).
   */
  async cancelPending(agent: string, note: string, only: (record: RequestRecord) => boolean = () => true): Promise<RequestRecord[]> {
    const cancelled: RequestRecord[] = [];
    for (const record of await this.store.requests.list({ state: 'pending', involving: agent })) {
      if (!only(record)) continue;
      const result = await this.store.requests.transition(record.request_id, 'cancelled', 'lead', note);
      if (!result.ok) continue;
      cancelled.push(result.record);
      await this.auditRequest(result.record, 'pending', 'lead');
    }
    return cancelled;
  }

  private async auditMessage(envelope: Envelope): Promise<void> {
    await this.store.audit.append({
      event: 'message',
      id: envelope.id,
      type: envelope.type,
      from: envelope.from,
      to: envelope.to,
      request_id: envelopeRequestId(envelope),
      summary: auditSummary(envelope),
    });
  }

  private async auditRequest(record: RequestRecord, from: RequestRecord['state'] | null, by: string): Promise<void> {
    await this.store.audit.append({
      event: 'request',
      request_id: record.request_id,
      kind: record.kind,
      from: record.from,
      to: record.to,
      from_state: from,
      to_state: record.state,
      by,
      note: record.note,
    });
  }
}

/** The audit log's one line of a message: what a human reads of it, as its kind writes it. */
function auditSummary(envelope: Envelope): string {
  return oneLine(humanLine(envelope), 200);
}
