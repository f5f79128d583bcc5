import type { Envelope } from '../../../protocol/index.js';
import { lookOnChange } from '../../../lib/index.js';
import { JournalFollower } from './journal.js';
import { ensureMailboxDirs, type MailboxLayout } from './layout.js';
import type { ObserveOptions, Subscription, Transport } from '../../transport.js';

/**
 * Watch a mailbox without consuming it (`teams inbox --follow`): report every message that is
 * waiting in its logs or that its consumer records as handled from now on, each once. A
 * consumer may take a message between two looks; its journal still shows it.
 */
export async function observeMailbox(
  transport: Transport,
  layout: MailboxLayout,
  agent: string,
  listener: (messages: Envelope[]) => void,
  options: ObserveOptions,
): Promise<Subscription> {
  // A member that has had no message yet has no mailbox on disk; watching needs one.
  ensureMailboxDirs(layout);
  const seen = new Set<string>();
  const journal = new JournalFollower(layout.journal, { fromStart: options.from === 'history' });
  const look = async () => {
    const handled = journal.next();
    const { messages: waiting } = await transport.peek(agent);
    // Handled first, in the order handled; then the waiting ones, in send order.
    const fresh = [...handled, ...waiting].filter((m) => !seen.has(m.id));
    for (const message of fresh) seen.add(message.id);
    if (fresh.length > 0) listener(fresh);
  };
  // The backlog (looked at before this resolves), then whatever arrives.
  return lookOnChange([layout.logs, layout.journal], look);
}
