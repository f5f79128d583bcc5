import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Envelope } from '../protocol/messages.js';
import { failpoint } from '../files/failpoint.js';
import { createDrainRunner, watchForHints } from '../files/wakeup.js';
import { readEntry, listNew } from './entries.js';
import { DeliveredJournal, type JournalOptions } from './journal.js';
import { isMissing } from '../files/errno.js';
import { ensureMailboxDirs, type MailboxLayout } from './layout.js';
import { RecentIds } from './recent-ids.js';
import { moveAside } from './set-aside.js';
import type { MailboxEvent, SubscribeOptions, Subscription } from './transport.js';

/** Entries handled per journal write: bounds memory and the duplicate window after a crash. */
const BATCH_ENTRIES = 1000;
const BATCH_BYTES = 8 * 1024 * 1024;
/** A sender takes milliseconds between writing tmp/ and renaming; an hour-old temporary is abandoned. */
const STALE_TEMPORARY_MS = 60 * 60 * 1000;

export type ConsumerOptions = JournalOptions & {
  /** How many handled ids to remember for dedupe; at least one batch. */
  dedupeCapacity: number;
  onError: (error: unknown) => void;
  admit?: SubscribeOptions['admit'];
};

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

/** Temporaries of senders that died between writing and renaming, which nothing else would remove. */
function removeStaleTemporaries(tmp: string, now: number): void {
  for (const name of readdirSync(tmp)) {
    const path = join(tmp, name);
    try {
      if (now - statSync(path).mtimeMs > STALE_TEMPORARY_MS) unlinkSync(path);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
}

/**
 * Consume one mailbox: the only process that removes from its new/ and appends to its journal.
 * Each drain takes new/ in send order, sets aside what cannot be read or is refused by
 * `options.admit`, journals the batch in one write, removes its files, and only then hands it
 * to the listener.
 */
export async function startConsumer(
  layout: MailboxLayout,
  options: ConsumerOptions,
  listener: (event: MailboxEvent) => void,
): Promise<Subscription> {
  ensureMailboxDirs(layout);
  removeStaleTemporaries(layout.tmp, Date.now());
  const journal = new DeliveredJournal(layout.journal, options);
  const capacity = Math.max(options.dedupeCapacity, BATCH_ENTRIES);
  const handled = new RecentIds(capacity);
  for (const id of journal.open(capacity)) handled.add(id);
  // Entries that could not be set aside: reported once, then skipped rather than re-read
  // (and re-reported) by every drain. A restarted consumer tries them again.
  const stuck = new RecentIds(capacity);
  let stopping = false;

  const emit = (event: MailboxEvent) => {
    try {
      listener(event);
    } catch (error) {
      options.onError(error);
    }
  };

  // Plain concatenation: path.join normalizes, which costs more than the unlink it serves.
  const inNew = (name: string) => `${layout.new}${sep}${name}`;

  const setAside = (name: string, reason: string) => {
    const moved = moveAside(inNew(name), layout.bad, name);
    if (moved.kind === 'moved') emit({ type: 'set_aside', problem: { ref: moved.to, reason } });
    else if (moved.kind === 'stuck') {
      stuck.add(name);
      const why = `${reason}; could not be moved to bad/ (${moved.error}): left in new/ and skipped until the consumer restarts`;
      emit({ type: 'set_aside', problem: { ref: inNew(name), reason: why } });
    }
  };

  /** Why the subscriber refuses this envelope, or undefined if it takes it. */
  const refusal = (envelope: Envelope): string | undefined => {
    if (options.admit === undefined) return undefined;
    try {
      const verdict = options.admit(envelope);
      return verdict.ok === true ? undefined : verdict.reason;
    } catch (error) {
      return `the admission check failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  };

  /** Consume names[from…] up to one batch; returns where the next batch starts. */
  const consumeBatch = (names: readonly string[], from: number): number => {
    const batch: { name: string; envelope: Envelope }[] = [];
    let bytes = 0;
    let next = from;
    for (; next < names.length && batch.length < BATCH_ENTRIES && bytes < BATCH_BYTES; next++) {
      const name = names[next] as string;
      if (stuck.has(name)) continue;
      const entry = readEntry(layout.new, name);
      if (entry.kind === 'vanished') continue;
      if (entry.kind === 'problem') {
        setAside(name, entry.reason);
        continue;
      }
      // Checked before the dedupe too: a refused copy of a handled id is kept as evidence.
      const refused = refusal(entry.envelope);
      if (refused !== undefined) setAside(name, `refused: ${refused}`);
      else if (handled.has(entry.envelope.id)) removeQuietly(inNew(name));
      else {
        batch.push({ name, envelope: entry.envelope });
        bytes += entry.bytes;
      }
    }
    if (batch.length > 0) {
      const messages = batch.map((item) => item.envelope);
      journal.append(messages);
      // Journaled, still in new/: the one window a crash leaves duplicates in, which the
      // restarted consumer drops because these ids are in the journal's tail.
      failpoint('mailbox-after-journal');
      for (const item of batch) removeQuietly(inNew(item.name));
      for (const message of messages) handled.add(message.id);
      emit({ type: 'delivered', messages });
    }
    return next;
  };

  // One listing per drain, consumed in batches. Whatever arrives meanwhile raises a hint,
  // which runs the next drain.
  const drain = () => {
    const names = listNew(layout.new);
    for (let next = 0; next < names.length && !stopping; ) next = consumeBatch(names, next);
  };

  const runner = createDrainRunner(drain, options.onError);
  const stopWatching = await watchForHints([layout.new], () => runner.hint(), options.onError);
  // Messages renamed in before the watcher was ready raised no event: drain them now.
  runner.hint();
  await runner.idle();

  return {
    async close() {
      stopping = true;
      await stopWatching();
      await runner.close();
    },
  };
}
