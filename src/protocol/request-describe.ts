import { oneLine } from '../lib/index.js';
import { REQUEST_KINDS, type Kind } from './messages.js';
import type { RequestRecord } from './request-records.js';

/**
 * A request's latest change as one line a person reads, with who made it and the message type
 * it stands for. The lead sees no message that teammates send each other, so the REPL and
 * `teams run` show their requests this way, from the shared journal.
 */
export function describeRequestChange(record: RequestRecord): { actor: string; type: Kind; text: string } {
  const pair = REQUEST_KINDS[record.kind];
  const what = `${record.kind} request ${record.request_id}`;
  const note = record.note ? `: ${oneLine(record.note, 160)}` : '';
  switch (record.state) {
    case 'pending':
      return { actor: record.from, type: pair.request, text: `asks ${record.to} (${what}): ${oneLine(record.summary, 160)}` };
    case 'approved':
    case 'rejected':
      return { actor: record.decided_by ?? record.to, type: pair.response, text: `${record.state} ${what} from ${record.from}${note}` };
    case 'expired':
    case 'cancelled':
      return { actor: record.decided_by ?? record.to, type: pair.response, text: `${what} from ${record.from} to ${record.to} ${record.state}${note}` };
  }
}

/** The record as it was when it opened: a change seen only once it was decided still shows its opening first. */
export function asOpened(record: RequestRecord): RequestRecord {
  return { ...record, state: 'pending', decided_at: undefined, decided_by: undefined, note: undefined };
}
