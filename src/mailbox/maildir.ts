import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { MESSAGE_ID_PATTERN } from '../protocol/ids.js';
import { MAX_MESSAGE_BYTES, type Envelope } from '../protocol/messages.js';
import { rethrowLater } from '../files/wakeup.js';
import { startConsumer } from './consumer.js';
import { readEntry } from './entries.js';
import { observeMaildir } from './observe.js';
import { isMissing } from '../files/errno.js';
import { fsyncPath, mailboxDir, mailboxLayout, type MailboxLayout } from './layout.js';
import type { MailboxEvent, ObserveOptions, SetAside, SubscribeOptions, Subscription, Transport } from './transport.js';

export type MaildirOptions = {
  /** fsync each message and journal write (and their directories): survives a machine crash, costs ~1-6 ms each. */
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

function writeDurably(path: string, data: string): void {
  const fd = openSync(path, 'w');
  try {
    writeFileSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Mailboxes as Maildir directories under <team root>/mailboxes/<agent>/ (see layout.ts).
 * Any number of processes deliver without locks; one consumer per mailbox subscribes.
 */
export class MaildirTransport implements Transport {
  private readonly durable: boolean;
  /** Mailboxes whose tmp/ and new/ this process has created, so a delivery costs no mkdir. */
  private readonly prepared = new Map<string, MailboxLayout>();

  constructor(
    private readonly root: string,
    private readonly options: MaildirOptions = {},
  ) {
    this.durable = options.durable ?? false;
  }

  /**
   * Content is not re-validated here: senders build envelopes from checked drafts, and the
   * consumer zod-parses every entry it reads, setting aside what fails with the reason. A
   * full parse here would double each sender's CPU per message. Checked is what the transport
   * itself relies on: the id, which names the file, and the size limit.
   */
  async deliver(agent: string, envelope: Envelope): Promise<void> {
    if (!MESSAGE_ID_PATTERN.test(envelope.id)) throw new Error(`refusing to deliver to ${agent}: '${envelope.id}' is not a message id`);
    const data = JSON.stringify(envelope);
    const bytes = Buffer.byteLength(data, 'utf8');
    if (bytes > MAX_MESSAGE_BYTES) throw new Error(`refusing to deliver a ${bytes}-byte message to ${agent}: the limit is ${MAX_MESSAGE_BYTES} bytes`);
    const name = `${envelope.id}.json`;
    try {
      this.place(this.prepare(agent), name, data);
    } catch (error) {
      // The mailbox was removed since this process prepared it: make it again, once.
      if (!isMissing(error) || !this.prepared.delete(agent)) throw error;
      this.place(this.prepare(agent), name, data);
    }
  }

  async peek(agent: string): Promise<{ messages: Envelope[]; problems: SetAside[] }> {
    const dir = mailboxLayout(mailboxDir(this.root, agent)).new;
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (error) {
      if (isMissing(error)) return { messages: [], problems: [] };
      throw error;
    }
    const messages: Envelope[] = [];
    const problems: SetAside[] = [];
    for (const name of names) {
      const entry = readEntry(dir, name);
      if (entry.kind === 'message') messages.push(entry.envelope);
      else if (entry.kind === 'problem') problems.push({ ref: join(dir, name), reason: entry.reason });
    }
    return { messages, problems };
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
    return observeMaildir(this, mailboxLayout(mailboxDir(this.root, agent)), agent, listener, options);
  }

  private prepare(agent: string): MailboxLayout {
    let layout = this.prepared.get(agent);
    if (layout === undefined) {
      layout = mailboxLayout(mailboxDir(this.root, agent));
      mkdirSync(layout.tmp, { recursive: true });
      mkdirSync(layout.new, { recursive: true });
      this.prepared.set(agent, layout);
    }
    return layout;
  }

  /** Write the whole message under tmp/, then rename it into new/, where it appears complete. */
  private place(layout: MailboxLayout, name: string, data: string): void {
    const temporary = `${layout.tmp}${sep}${name}`;
    if (this.durable) writeDurably(temporary, data);
    else writeFileSync(temporary, data);
    renameSync(temporary, `${layout.new}${sep}${name}`);
    if (this.durable) fsyncPath(layout.new);
  }
}
