import type { Envelope } from '../protocol/messages.js';
import { renderForModel } from '../protocol/notices.js';

export type PlanReviewer = 'human' | 'lead';

/** What the lead's harness does with one message addressed to it. */
export type Route = {
  /** Text for the lead's model, if the model should hear of it. */
  notice?: string;
  /** A decision that waits for the human in the approval queue. */
  forHuman?: boolean;
  /** The teammate agreed to stop: expect its process to exit, and end it after the grace period. */
  expectExit?: string;
};

/**
 * Pure: the route of a message reaching the lead. Plans go to the human unless the lead's
 * model reviews them; permissions and requests to be ended always go to the human.
 */
export function routeForLead(envelope: Envelope, planReviewer: PlanReviewer): Route {
  switch (envelope.type) {
    case 'plan_approval_request':
      return planReviewer === 'lead' ? { notice: renderForModel(envelope) } : { forHuman: true };
    case 'permission_request':
    case 'finish_request':
      return { forHuman: true };
    case 'shutdown_response':
      return envelope.approve ? { notice: renderForModel(envelope), expectExit: envelope.from } : { notice: renderForModel(envelope) };
    case 'idle_notification':
      // An idle teammate that already reported has nothing new to say; one that did not forwards its last words.
      return envelope.summary ? { notice: renderForModel(envelope) } : {};
    default:
      return { notice: renderForModel(envelope) };
  }
}
