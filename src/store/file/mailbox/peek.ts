import { closeSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Envelope } from '../../../protocol/index.js';
import { isMissing, errorMessage } from '../../../lib/index.js';
import { readCheckpoint } from './checkpoint.js';
import { listNew, readEntry } from './entries.js';
import { parseEnvelope } from './envelope-text.js';
import { HandledIds } from './handled-ids.js';
import type { MailboxLayout } from './layout.js';
import { logLines } from './log-lines.js';
import { NOT_A_LOG, WriterLiveness } from './log-names.js';
import { scanLogs, type ScannedLog } from './log-scan.js';
import { MessageOrder } from './message-order.js';
import { NotRegular, openEntry } from './open-entry.js';
import type { SetAside } from '../../transport.js';

type Peeked = { messages: Envelope[]; problems: SetAside[] };

/** What an older version left in new/, in send order: taken before the logs. */
function peekLegacy(dir: string, into: Peeked): void {
  for (const name of listNew(dir)) {
    const entry = readEntry(dir, name);
    if (entry.kind === 'message') into.messages.push(entry.envelope);
    else if (entry.kind === 'problem') into.problems.push({ ref: join(dir, name), reason: entry.reason });
  }
}

function peekLog(dir: string, log: ScannedLog, from: (ino: number) => number, order: MessageOrder<Envelope>, problems: SetAside[]): void {
  const path = `${dir}${sep}${log.name}`;
  let opened: ReturnType<typeof openEntry>;
  try {
    opened = openEntry(path);
  } catch (error) {
    // Gone: its consumer has taken it to its end and deleted it.
    if (!isMissing(error)) problems.push({ ref: path, reason: error instanceof NotRegular ? error.message : `unreadable: ${errorMessage(error)}` });
    return;
  }
  const { fd, stats } = opened;
  try {
    for (const line of logLines(fd, from(stats.ino), stats.size, log.finished)) {
      const parsed = line.kind === 'bad' ? { kind: 'problem' as const, reason: line.reason } : parseEnvelope(line.bytes.toString('utf8'));
      if (parsed.kind === 'message') order.add(log.writer, parsed.envelope.id, parsed.envelope);
      else problems.push({ ref: `${path} at byte ${line.offset}`, reason: parsed.reason });
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * The unread messages of a mailbox, without consuming anything, from any process: what an
 * older version left, then every log from where the consumer's checkpoint says it got to, in
 * the consumer's order. Problems are what the consumer would set aside (admission aside,
 * which only a subscriber decides). A consumer at work meanwhile may have taken some of it.
 * A message delivered more than once (a retried deliver) is shown once, and not at all once
 * handled (`handled`, looked at after the logs): the consumer drops such copies.
 */
export function peekMailbox(layout: MailboxLayout, handled = new HandledIds(layout.journal)): Peeked {
  const peeked: Peeked = { messages: [], problems: [] };
  peekLegacy(layout.legacyNew, peeked);
  const positions = readCheckpoint(layout.checkpoint);
  const scan = scanLogs(layout.logs, new WriterLiveness());
  for (const name of scan.strays) peeked.problems.push({ ref: join(layout.logs, name), reason: NOT_A_LOG });
  const order = new MessageOrder<Envelope>();
  for (const log of scan.logs) {
    const position = positions.get(log.name);
    peekLog(layout.logs, log, (ino) => (position?.ino === ino ? position.offset : 0), order, peeked.problems);
  }
  peeked.messages.push(...order.sorted());
  handled.refresh();
  const shown = new Set<string>();
  peeked.messages = peeked.messages.filter((message) => {
    if (handled.has(message.id) || shown.has(message.id)) return false;
    shown.add(message.id);
    return true;
  });
  return peeked;
}
