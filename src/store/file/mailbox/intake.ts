import { errorMessage } from '../../../lib/index.js';
import type { Envelope } from '../../../protocol/index.js';
import type { DeliveredJournal } from './journal.js';
import type { RecentIds } from './recent-ids.js';
import type { MailboxEvent, SubscribeOptions } from '../../transport.js';

/** Messages handled per journal write: bounds memory and the duplicate window after a crash. */
export const BATCH_ENTRIES = 1000;
export const BATCH_BYTES = 8 * 1024 * 1024;

/** What both of a consumer's sources (the logs, an older version's new/) hand their messages to. */
export type Intake = {
  journal: DeliveredJournal;
  /** The ids recently journaled: a message read again after a crash, or sent twice, is dropped. */
  handled: RecentIds;
  /** Why the subscriber refuses this envelope, or undefined if it takes it. */
  refusal(envelope: Envelope): string | undefined;
  /** To the listener; what it throws goes to onError, never into the drain. */
  emit(event: MailboxEvent): void;
};

export function createIntake(
  journal: DeliveredJournal,
  handled: RecentIds,
  admit: SubscribeOptions['admit'],
  listener: (event: MailboxEvent) => void,
  onError: (error: unknown) => void,
): Intake {
  return {
    journal,
    handled,
    refusal(envelope) {
      if (admit === undefined) return undefined;
      try {
        const verdict = admit(envelope);
        return verdict.ok === true ? undefined : verdict.reason;
      } catch (error) {
        return `the admission check failed: ${errorMessage(error)}`;
      }
    },
    emit(event) {
      try {
        listener(event);
      } catch (error) {
        onError(error);
      }
    },
  };
}
