import { type Envelope, specOf, type LeadRoute, type PlanReviewer } from '../protocol/index.js';

export type { PlanReviewer } from '../protocol/index.js';
export type Route = LeadRoute;

/**
 * Pure: the route of a message reaching the lead, as its kind declares it. By default the
 * lead's model hears of it, except a request that the human decides (plans unless the
 * lead's model reviews them; permissions and requests to be ended always).
 */
export function routeForLead(envelope: Envelope, planReviewer: PlanReviewer): Route {
  const spec = specOf(envelope.type);
  if (spec.atLead) return spec.atLead(envelope, planReviewer);
  if (spec.role.class === 'request' && spec.role.humanDecides(planReviewer)) return { forHuman: true };
  return { notice: spec.notice(envelope) };
}
