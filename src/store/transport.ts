import type { Envelope } from '../protocol/index.js';

/**
 * An entry that could not be read as a message: set aside, never fatal. `ref` is an opaque
 * reference that tells a person where to find the evidence; what it holds is the backend's
 * business (the file store: a path). If the entry could not be set aside at all, the reason
 * says so; such an entry is reported once and skipped.
 */
export type SetAside = { ref: string; reason: string };

export type MailboxEvent =
  | { type: 'delivered'; messages: Envelope[] }
  | { type: 'set_aside'; problem: SetAside };

/** A subscriber's verdict on one envelope. */
export type Admission = { ok: true } | { ok: false; reason: string };

export type SubscribeOptions = {
  /**
   * Checked for every message read from the mailbox, before it is recorded as handled: a
   * signature check, say, so that an envelope with a forged `from` never enters the
   * recipient's history as if handled. A refused message is set aside like an unreadable
   * entry (a 'set_aside' event whose reason is "refused: <reason>"); it is neither journaled
   * nor given to the listener. A check that throws refuses: a failure fails closed.
   */
  admit?: (envelope: Envelope) => Admission;
};

/**
 * Where an observer starts: 'history' is every handled message the mailbox still keeps, then
 * the unread ones; 'unread' is the messages waiting now. Either way, every message that
 * arrives later follows.
 */
export type ObserveOptions = { from: 'history' | 'unread' };

export type Subscription = {
  /** Stop watching; resolves once no further event will be emitted. */
  close(): Promise<void>;
};

/**
 * How messages move between agents. The file transport (LogTransport) is the local one; a
 * Redis Streams transport for teams spanning machines must pass the same conformance tests.
 */
export interface Transport {
  /**
   * Place a message in one agent's mailbox. Resolves once a reader can see it whole.
   * Idempotent per envelope id: delivering an envelope whose id the mailbox already holds
   * (a retry after a lost reply, or two processes sending the same one at once), whether that
   * one is still waiting or already handled, delivers it once: the consumer is handed it once,
   * and peek and observe show it once. So a sender unsure whether a deliver landed sends again.
   * A store remembers handled ids for a while, not for ever (the file store: the last 10,000
   * handled, and its current journal): a retry is prompt, not days later.
   */
  deliver(agent: string, envelope: Envelope): Promise<void>;
  /** The unread messages, oldest first, without consuming them; each id once, none already handled. */
  peek(agent: string): Promise<{ messages: Envelope[]; problems: SetAside[] }>;
  /**
   * Consume an agent's mailbox: one consumer per mailbox. Messages are recorded as handled
   * (durably, exactly once per id) before the listener sees them, in send order per sender.
   * Those `options.admit` refuses are set aside instead.
   */
  subscribe(agent: string, listener: (event: MailboxEvent) => void, options?: SubscribeOptions): Promise<Subscription>;
  /**
   * Watch a mailbox without consuming it (`teams inbox --follow`, a view of a teammate): every
   * message from `options.from` on, each reported once, handled or not. The backlog reaches
   * the listener before the returned promise resolves, so observing and closing at once reads
   * the history. Any number of observers may watch beside the one consumer.
   */
  observe(agent: string, listener: (messages: Envelope[]) => void, options: ObserveOptions): Promise<Subscription>;
}
