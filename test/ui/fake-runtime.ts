import { EventStream } from '../../src/lib/event-stream.js';
import { AuditEntry } from '../../src/store/audit.js';
import { Refused } from '../../src/lib/refused.js';
import type { Draft, Envelope } from '../../src/protocol/messages.js';
import type { HumanDecision } from '../../src/lead/decisions.js';
import type { LeadOp, LeadReply, LeadSnapshot } from '../../src/lead/ops.js';
import { submitOp, type OpTargets } from '../../src/lead/submit.js';
import type { LeadEvent } from '../../src/lead/events.js';
import type { RequestRecord } from '../../src/protocol/request-records.js';
import type { ReplRuntime, ReplStore } from '../../src/ui/runtime.js';
import type { Spawned, SpawnSpec } from '../../src/tools/team-io.js';
import type { PermissionMode } from '../../src/protocol/fields.js';

/**
 * A stand-in for the lead runtime: events are emitted by the test. Its ops go through the
 * real `submitOp`, as LeadRuntime's do, onto stand-in parts that record every call they get.
 * For rendering and keyboard tests that need no processes; the approval flow test uses the
 * real runtime.
 */
export class FakeRuntime implements ReplRuntime {
  readonly events = new EventStream<LeadEvent>();
  readonly model = { label: 'offline-demo (scripted offline demo model, not Claude)' };
  readonly sandbox = { kind: 'bwrap' as const, network: 'on' as const, bwrap: 'bwrap' };
  readonly options;
  readonly calls: { method: string; args: unknown[] }[] = [];
  pending: RequestRecord[] = [];
  /** The lead's mode as its snapshot tells it (a test sets it before `stateFor`). */
  mode: PermissionMode = 'default';
  /** A resumed session's start, when a test sets one (before `stateFor`). */
  session: ReplRuntime['session'];
  /** Resolves the stop() in progress; tests decide when the team "has stopped". */
  finishStop: () => void = () => undefined;

  constructor() {
    this.options = { cwd: '/tmp/work', settings: { model: 'offline-demo', offline: true } };
  }

  submit(op: LeadOp): Promise<LeadReply> {
    return submitOp(op, {
      store: this.store,
      paths: undefined,
      bus: this.bus,
      decisions: { decide: this.decisions.decide, sweep: async () => this.record('sweep'), pendingForHuman: async () => [] },
      teammates: this.teammates,
      loop: this.loop,
      lead: this.lead,
      stop: (reason) => this.stop(reason),
      forceStop: () => this.forceStop(),
    });
  }

  async snapshot(): Promise<LeadSnapshot> {
    return { busy: this.loop.busy, mode: this.mode, pending: this.pending };
  }

  /** A team with nothing stored but the requests a test puts in `pending`. */
  readonly store: ReplStore & OpTargets['store'] = {
    team: 'default',
    roster: { load: async () => undefined },
    requests: { list: async () => this.pending },
    audit: { read: async () => ({ entries: [], problems: [] }), append: async (entry) => AuditEntry.parse({ ...entry, at: new Date().toISOString() }) },
    mailboxes: { peek: async () => ({ messages: [], problems: [] }) },
    agentLogs: { follow: (agent, listener, options) => this.agentLogs.follow(agent, listener, options) },
    // An empty board that stays empty: tests that change the board run /task on a file store.
    tasks: {
      list: async () => [],
      watch: async () => ({ close: async () => undefined }),
      create: async () => {
        throw new Refused('this fake runtime has no board to add to');
      },
      update: async (id) => ({ ok: false, error: `unknown task ${id}` }),
    },
  };

  /** Teammates' logs: none, unless a test gives real ones (a file store's, over a temporary directory). */
  agentLogs: ReplStore['agentLogs'] = {
    follow: async (_agent, listener) => {
      listener({ lines: [], next: 'at-0', skipped: false });
      return { close: async () => undefined };
    },
  };

  private record(method: string, ...args: unknown[]): void {
    this.calls.push({ method, args });
  }

  called(method: string): unknown[][] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }

  /** Tests set `loop.busy` to say the lead is mid-turn. */
  readonly loop = { busy: false, interrupt: () => this.record('interrupt'), compact: () => this.record('compact', 'lead'), push: (text: string) => this.record('prompt', text) };

  /** The lead's own mode, model and conversation: recorded, and told back as the real lead's step tells the REPL. */
  readonly lead = {
    setMode: async (mode: PermissionMode) => {
      this.record('lead_mode', mode);
      this.events.emit({ type: 'lead_mode', mode });
    },
    setModel: async (model: string) => {
      this.record('lead_model', model);
      this.events.emit({ type: 'lead_model', model, label: model });
      return model;
    },
    clear: async () => {
      this.record('clear');
      this.events.emit({ type: 'lead_session', id: 'session-fresh00001' });
      return 'session-fresh00001';
    },
    resume: async (id: string) => {
      this.record('resume', id);
      this.events.emit({ type: 'lead_session', id });
      return { records: 0, problems: 0 };
    },
  };

  readonly decisions = {
    decide: async (requestId: string, decision: HumanDecision): Promise<RequestRecord> => {
      this.record('decide', requestId, decision);
      const record = this.pending.find((r) => r.request_id === requestId);
      if (!record) throw new Error(`unknown request_id '${requestId}'`);
      this.pending = this.pending.filter((r) => r !== record);
      this.events.emit({ type: 'approvals', pending: this.pending });
      return { ...record, state: decision.approve ? 'approved' : 'rejected' };
    },
  };

  readonly teammates = {
    spawn: async (spec: SpawnSpec): Promise<Spawned> => {
      this.record('spawn', spec);
      return { pid: 4242, model: spec.model ?? this.options.settings.model };
    },
    requestShutdown: async (name: string, reason: string | undefined) => {
      this.record('requestShutdown', name, reason);
      return { requestId: 'shutdown-1' };
    },
    respawn: async (name: string) => {
      this.record('respawn', name);
      return { pid: 4343, cancelled: [], planMode: false };
    },
    setMode: async (name: string, mode: string, asker: 'human') => {
      this.record('setMode', name, mode, asker);
    },
    tell: async (name: string, text: string) => {
      this.record('tell', name, text);
      return { id: 'user-message-1' };
    },
    interrupt: async (name: string) => {
      this.record('interrupt-teammate', name);
      return { id: 'interrupt-1' };
    },
    compact: (name: string) => this.record('compact', name),
  };

  readonly bus = {
    send: async (draft: Draft): Promise<Envelope> => {
      this.record('send', draft);
      return { ...draft, id: '01hzzzzzzz0000abcdef', timestamp: new Date().toISOString() } as Envelope;
    },
  };

  stop(reason?: string): Promise<void> {
    this.record('stop', reason);
    return new Promise((resolve) => (this.finishStop = resolve));
  }

  async forceStop(): Promise<void> {
    this.record('forceStop');
    this.finishStop();
  }
}
