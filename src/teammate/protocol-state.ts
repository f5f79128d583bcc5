import type { RequestRecord } from '../protocol/index.js';
import type { HarnessState } from './harness.js';

/**
 * What an agent must not forget through a compaction, as the runtime knows it rather than
 * as a summary remembers it: kept whole beside the summary of earlier work.
 */

export function teammateProtocolState(state: HarnessState): string {
  const lines = [`Your task: ${state.task.id}: ${state.task.subject}`];
  if (state.task.description !== undefined) lines.push(`Task description: ${state.task.description}`);
  lines.push(`Your permission mode: ${state.mode}.`);
  lines.push(state.planApproved ? 'Your plan is approved (or none was needed).' : `Your plan is not approved yet: only read-only tools work (rejections so far: ${state.planRejections}).`);
  lines.push(state.awaiting ? `Waiting for the lead's answer to your ${state.awaiting.kind} request ${state.awaiting.requestId}.` : 'No request of yours is waiting for an answer.');
  if (state.stopping) lines.push(`You agreed to stop (${state.stopping}): finish the step under way, start nothing new.`);
  return lines.join('\n');
}

export function leadProtocolState(running: readonly string[], pending: readonly RequestRecord[]): string {
  const teammates = running.length === 0 ? 'No teammate is running.' : `Teammates running: ${running.join(', ')}.`;
  if (pending.length === 0) return `${teammates}\nNo request is pending.`;
  const requests = pending.map((r) => `- ${r.request_id}: ${r.kind} request from ${r.from} to ${r.to}`);
  return [teammates, 'Requests pending:', ...requests].join('\n');
}
