import type { Envelope } from '../protocol/messages.js';
import { createDrainRunner, watchForHints } from '../files/wakeup.js';
import { JournalFollower } from './journal.js';
import { ensureMailboxDirs, mailboxLayout } from './layout.js';
import type { Subscription, Transport } from './transport.js';

/**
 * Watch a Maildir mailbox without consuming it (`teams inbox --follow`): report every message
 * that is waiting in new/ or that its consumer records as handled from now on, each once.
 * A consumer may take a message from new/ between two looks; its journal still shows it.
 */
export async function observeMaildir(
  transport: Transport,
  mailboxDir: string,
  agent: string,
  listener: (messages: Envelope[]) => void,
): Promise<Subscription> {
  const layout = mailboxLayout(mailboxDir);
  // A member that has had no message yet has no mailbox on disk; watching needs one.
  ensureMailboxDirs(layout);
  const seen = new Set<string>();
  // Only what the consumer handles from now on: its earlier history is not "arriving".
  const journal = new JournalFollower(layout.journal);
  const look = async () => {
    const handled = journal.next();
    const { messages: waiting } = await transport.peek(agent);
    const fresh = [...handled, ...waiting].filter((m) => !seen.has(m.id));
    for (const message of fresh) seen.add(message.id);
    fresh.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (fresh.length > 0) listener(fresh);
  };
  const runner = createDrainRunner(look);
  const stop = await watchForHints([layout.new, layout.journal], () => runner.hint());
  // Anything that arrived before the watcher was ready.
  runner.hint();
  return {
    async close() {
      await stop();
      await runner.close();
    },
  };
}
