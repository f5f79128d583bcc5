import { specOf } from './kinds/index.js';
import type { TeammateReaction, TeammateState } from './kinds/spec.js';
import type { Envelope } from './messages.js';

/**
 * Pure: what a verified message means at the teammate it reaches, as its kind's file declares
 * it (`atTeammate`). A kind that declares nothing only tells the model, in its own words.
 */
export function atTeammate(envelope: Envelope, state: TeammateState): TeammateReaction {
  const spec = specOf(envelope.type);
  return spec.atTeammate ? spec.atTeammate(envelope, state) : { state, notice: spec.notice(envelope) };
}
