import type { RosterStore } from '../store/index.js';
import type { RequestRecord } from '../protocol/index.js';

/**
 * Work among the `running` teammates that the lead takes no part in, and so never hears of in
 * its own mailbox: a request between members still open (its deadline bounds the wait), a
 * message waiting in a teammate's mailbox, or a teammate in a model turn. Mail is looked at
 * before the roster: a teammate marks itself working as it takes a message, in the same step,
 * though another process may still look in between (a window of a file write).
 */
export async function busyAmongThemselves(
  running: ReadonlySet<string>,
  pending: readonly RequestRecord[],
  unread: (name: string) => Promise<number>,
  roster: Pick<RosterStore, 'load'>,
): Promise<boolean> {
  if (pending.some((r) => running.has(r.from) || running.has(r.to))) return true;
  for (const name of running) if ((await unread(name)) > 0) return true;
  return ((await roster.load())?.members ?? []).some((m) => running.has(m.name) && m.status === 'working');
}
