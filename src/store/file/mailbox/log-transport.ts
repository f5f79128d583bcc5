import type { Envelope } from '../../../protocol/index.js';
import { rethrowLater } from '../../../lib/index.js';
import { messageText } from '../../message-text.js';
import { startConsumer } from './consumer.js';
import { mailboxDir, mailboxLayout } from './layout.js';
import { appendLine } from './log-writer.js';
import { observeMailbox } from './observe.js';
import { peekMailbox } from './peek.js';
import type { MailboxEvent, ObserveOptions, SetAside, SubscribeOptions, Subscription, Transport } from '../../transport.js';

export type LogTransportOptions = {
  /** fsync each message, checkpoint and journal write (and new logs' directory): survives a machine crash, costs ~1-6 ms each. */
  durable?: boolean;
  /** Rotate delivered.jsonl once it reaches this size (default 4 MiB). */
  journalMaxBytes?: number;
  /** How many rotated journals to keep (default 3); older ones are deleted. */
  journalArchives?: number;
  /** How many handled ids a consumer remembers to drop re-sent duplicates (default 10,000). */
  dedupeCapacity?: number;
  /** Unexpected I/O errors while consuming; by default rethrown (the process crashes, nothing is lost). */
  onError?: (error: unknown) => void;
};

/**
 * The file store's transport: mailboxes under <team root>/mailboxes/<agent>/ (see layout.ts),
 * each a directory of append-only logs, one per writing process. Any number of processes
 * deliver without locks; one consumer per mailbox subscribes. (A mailbox was once a Maildir, a
 * file per message, until creating files proved the bottleneck: legacy.ts reads what one left.)
 */
export class LogTransport implements Transport {
  private readonly durable: boolean;
  private readonly logsDirs = new Map<string, string>();

  constructor(
    private readonly root: string,
    private readonly options: LogTransportOptions = {},
  ) {
    this.durable = options.durable ?? false;
  }

  /** One line per message, checked as messageText says. */
  async deliver(agent: string, envelope: Envelope): Promise<void> {
    const line = `${messageText(agent, envelope)}\n`;
    appendLine(this.logsOf(agent), line, Buffer.byteLength(line, 'utf8'), this.durable);
  }

  /** Each agent's logs directory, worked out (and its name checked) once: a delivery costs one write. */
  private logsOf(agent: string): string {
    let logs = this.logsDirs.get(agent);
    if (logs === undefined) {
      logs = mailboxLayout(mailboxDir(this.root, agent)).logs;
      this.logsDirs.set(agent, logs);
    }
    return logs;
  }

  async peek(agent: string): Promise<{ messages: Envelope[]; problems: SetAside[] }> {
    return peekMailbox(mailboxLayout(mailboxDir(this.root, agent)));
  }

  async subscribe(agent: string, listener: (event: MailboxEvent) => void, options: SubscribeOptions = {}): Promise<Subscription> {
    return startConsumer(
      mailboxLayout(mailboxDir(this.root, agent)),
      {
        durable: this.durable,
        maxBytes: this.options.journalMaxBytes ?? 4 * 1024 * 1024,
        archives: this.options.journalArchives ?? 3,
        dedupeCapacity: this.options.dedupeCapacity ?? 10_000,
        onError: this.options.onError ?? rethrowLater,
        admit: options.admit,
      },
      listener,
    );
  }

  async observe(agent: string, listener: (messages: Envelope[]) => void, options: ObserveOptions): Promise<Subscription> {
    return observeMailbox(mailboxLayout(mailboxDir(this.root, agent)), listener, options);
  }
}
