import type { Envelope } from '../../../protocol/index.js';
import { lookOnChange } from '../../../lib/index.js';
import { HandledIds } from './handled-ids.js';
import { JournalFollower } from './journal.js';
import { ensureMailboxDirs, type MailboxLayout } from './layout.js';
import { peekMailbox } from './peek.js';
import type { ObserveOptions, Subscription } from '../../transport.js';

/**
 * Watch a mailbox without consuming it (`teams inbox --follow`): report every message that is
 * waiting in its logs or that its consumer records as handled from now on, each once. A
 * consumer may take a message between two looks; its journal still shows it.
 */
export async function observeMailbox(
  layout: MailboxLayout,
  listener: (messages: Envelope[]) => void,
  options: ObserveOptions,
): Promise<Subscription> {
  // A member that has had no message yet has no mailbox on disk; watching needs one.
  ensureMailboxDirs(layout);
  const seen = new Set<string>();
  const journal = new JournalFollower(layout.journal, { fromStart: options.from === 'history' });
  // Kept from look to look: each reads only what the consumer journaled since.
  const handledIds = new HandledIds(layout.journal);
  const look = () => {
    const handled = journal.next();
    const { messages: waiting } = peekMailbox(layout, handledIds);
    // Handled first, in the order handled; then the waiting ones, in send order.
    const fresh = [...handled, ...waiting].filter((m) => !seen.has(m.id));
    for (const message of fresh) seen.add(message.id);
    if (fresh.length > 0) listener(fresh);
  };
  // The backlog (looked at before this resolves), then whatever arrives.
  return lookOnChange([layout.logs, layout.journal], look);
}
