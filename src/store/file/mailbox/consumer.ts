import { createDrainRunner, watchForHints } from '../../../lib/index.js';
import { CheckpointWriter } from './checkpoint.js';
import { BATCH_ENTRIES, createIntake } from './intake.js';
import { DeliveredJournal, type JournalOptions } from './journal.js';
import { ensureMailboxDirs, type MailboxLayout } from './layout.js';
import { LegacyMaildir } from './legacy.js';
import { LogDrain } from './log-drain.js';
import { ALIVE_FOR_MS } from './log-names.js';
import { RecentIds } from './recent-ids.js';
import type { MailboxEvent, SubscribeOptions, Subscription } from '../../transport.js';

export type ConsumerOptions = JournalOptions & {
  /** How many handled ids to remember for dedupe; at least one batch. */
  dedupeCapacity: number;
  onError: (error: unknown) => void;
  admit?: SubscribeOptions['admit'];
};

/**
 * Consume one mailbox: the only process that reads it for good, appends to its journal and
 * checkpoint, and deletes its finished logs. Each drain takes what an older version left
 * first, then every log from where the checkpoint says; a change to logs/ during a drain
 * raises a hint, which runs the next one.
 */
export async function startConsumer(
  layout: MailboxLayout,
  options: ConsumerOptions,
  listener: (event: MailboxEvent) => void,
): Promise<Subscription> {
  ensureMailboxDirs(layout);
  const journal = new DeliveredJournal(layout.journal, options);
  const capacity = Math.max(options.dedupeCapacity, BATCH_ENTRIES);
  const handled = new RecentIds(capacity);
  for (const id of journal.open(capacity)) handled.add(id);
  const intake = createIntake(journal, handled, options.admit, listener, options.onError);
  const legacy = new LegacyMaildir(layout, intake, capacity);
  const logs = new LogDrain(layout, new CheckpointWriter(layout.checkpoint, options.durable), intake);
  let stopping = false;
  const isStopping = () => stopping;
  let recheck: NodeJS.Timeout | undefined;

  const runner = createDrainRunner(() => {
    legacy.drain(isStopping);
    const partial = logs.drain(isStopping);
    // A writer killed mid-line leaves a torn line, and its death raises no event: look again
    // once its liveness is asked anew, so the line is set aside and the log cleaned up.
    if (partial && recheck === undefined && !stopping) {
      recheck = setTimeout(() => {
        recheck = undefined;
        runner.hint();
      }, ALIVE_FOR_MS + 1);
    }
  }, options.onError);
  const stopWatching = await watchForHints([layout.logs], () => runner.hint(), options.onError);
  // Lines appended before the watcher was ready raised no event: drain them now.
  runner.hint();
  await runner.idle();

  return {
    async close() {
      stopping = true;
      clearTimeout(recheck);
      await stopWatching();
      await runner.close();
      logs.close();
      journal.close();
    },
  };
}
