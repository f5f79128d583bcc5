import { errorMessage as message } from '../lib/index.js';
import type { EventStream } from '../lib/index.js';
import { LEAD } from '../protocol/index.js';
import type { TeamStore } from '../store/index.js';
import type { LeadEvent } from './events.js';

/**
 * Something refused or failed on the lead's side that no caller waits for: shown at once, and
 * audited. Reporting never throws: a log that cannot be written is one more problem shown.
 */
export function reportProblem(store: TeamStore, events: EventStream<LeadEvent>, what: string, reason: string): void {
  events.emit({ type: 'problem', text: `${what}: ${reason}` });
  store.audit
    .append({ event: 'problem', agent: LEAD, what, reason })
    .catch((error: unknown) => events.emit({ type: 'problem', text: `the audit log was not written: ${message(error)}` }));
}
