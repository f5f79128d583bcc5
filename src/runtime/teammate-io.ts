import { newRequestId } from '../protocol/ids.js';
import { draftFrom, summarize } from '../protocol/messages.js';
import { BROADCAST, LEAD } from '../protocol/names.js';
import type { TeamBus } from '../team/bus.js';
import { loadTeam, memberNames } from '../team/config.js';
import type { TeamIO } from '../tools/team-io.js';
import type { RequestTracker } from '../tracker/tracker.js';
import { planSubmissionProblem, type TeammateState } from './teammate-state.js';

/** What the teammate's TeamIO reads and changes in its harness. */
export type TeammateHooks = {
  state(): TeammateState;
  setState(state: TeammateState): void;
  /** The teammate sent the lead something: its result is not lost if it goes idle. */
  reported(): void;
  awaiting(kind: 'plan' | 'finish', requestId: string): void;
};

function leadOnly(action: string): never {
  throw new Error(`only the lead can ${action}`);
}

/** The team tools' view of the team, for a teammate: every action goes through the bus's rules. */
export function teammateTeamIO(name: string, bus: TeamBus, tracker: RequestTracker, hooks: TeammateHooks): TeamIO {
  return {
    self: name,
    async sendMessage(to, content) {
      const sent = await bus.send({ type: 'message', from: name, to, text: content, summary: summarize(content) });
      if (to === LEAD) hooks.reported();
      return { id: sent.id };
    },
    async send(draft) {
      const sent = await bus.send(draftFrom(name, draft));
      if (draft.to === LEAD) hooks.reported();
      return { id: sent.id };
    },
    async broadcast(content) {
      const sent = await bus.send({ type: 'broadcast', from: name, to: BROADCAST, text: content, summary: summarize(content) });
      hooks.reported();
      const team = loadTeam(bus.paths);
      return { id: sent.id, recipients: team ? memberNames(team).filter((m) => m !== name) : [] };
    },
    // Messages are shown to the model as they arrive, at tool-result boundaries; none wait here.
    readInbox: async () => [],
    listTeammates: async () => loadTeam(bus.paths)?.members ?? [],
    spawnTeammate: async () => leadOnly('spawn teammates'),
    requestShutdown: async () => leadOnly('ask a teammate to shut down'),
    requestStatus: (requestId) => tracker.get(requestId),
    reviewPlan: async () => leadOnly('review plans'),
    async answerShutdown(requestId, approve, reason) {
      await bus.send({ type: 'shutdown_response', from: name, to: LEAD, request_id: requestId, approve, reason });
      if (approve) hooks.setState({ ...hooks.state(), stopping: 'shutdown' });
    },
    async submitPlan(plan) {
      const problem = planSubmissionProblem(hooks.state());
      if (problem) throw new Error(problem);
      const requestId = newRequestId('plan');
      await bus.send({ type: 'plan_approval_request', from: name, to: LEAD, request_id: requestId, plan });
      hooks.awaiting('plan', requestId);
      return { requestId };
    },
    async requestFinish(summary) {
      const requestId = newRequestId('finish');
      await bus.send({ type: 'finish_request', from: name, to: LEAD, request_id: requestId, summary });
      hooks.reported();
      hooks.awaiting('finish', requestId);
      return { requestId };
    },
  };
}
