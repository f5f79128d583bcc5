import { draftFrom, finishRequest, finishRequestDraft, planRequest, planRequestDraft, planSubmissionProblem, summarize, BROADCAST, LEAD, type TeammateState } from '../protocol/index.js';
import type { TeamBus } from '../team/index.js';
import { memberNames, type TeamStore } from '../store/index.js';
import type { TeammateTeamIO } from '../tools/index.js';
import type { HarnessEvent } from './harness.js';
import { teammateBoardIO } from './board-io.js';

/** What the teammate's TeamIO reads of its harness, and the events it tells it of. */
export type TeammateHooks = {
  state(): TeammateState;
  dispatch(event: HarnessEvent): void;
};

/** The team tools' view of the team, for a teammate: every action goes through the bus's rules. */
export function teammateTeamIO(name: string, bus: TeamBus, store: TeamStore, hooks: TeammateHooks): TeammateTeamIO {
  return {
    self: name,
    async sendMessage(to, content) {
      const sent = await bus.send({ type: 'message', from: name, to, text: content, summary: summarize(content) });
      if (to === LEAD) hooks.dispatch({ type: 'reported' });
      return { id: sent.id };
    },
    async send(draft) {
      const sent = await bus.send(draftFrom(name, draft));
      if (draft.to === LEAD) hooks.dispatch({ type: 'reported' });
      return { id: sent.id };
    },
    async broadcast(content) {
      const sent = await bus.send({ type: 'broadcast', from: name, to: BROADCAST, text: content, summary: summarize(content) });
      hooks.dispatch({ type: 'reported' });
      const team = await store.roster.load();
      return { id: sent.id, recipients: team ? memberNames(team).filter((m) => m !== name) : [] };
    },
    listTeammates: async () => (await store.roster.load())?.members ?? [],
    requestStatus: (requestId) => store.requests.get(requestId),
    board: teammateBoardIO(name, store.tasks, async (notification) => {
      await bus.send({ type: 'task_notification', from: name, to: LEAD, ...notification });
      hooks.dispatch({ type: 'reported' });
    }),
    async answerShutdown(requestId, approve, reason) {
      await bus.send({ type: 'shutdown_response', from: name, to: LEAD, request_id: requestId, approve, reason });
      if (approve) hooks.dispatch({ type: 'agreed_to_shut_down' });
    },
    async submitPlan(plan) {
      const problem = planSubmissionProblem(hooks.state());
      if (problem) throw new Error(problem);
      const draft = planRequestDraft(name, plan);
      await bus.send(draft);
      hooks.dispatch({ type: 'asked', kind: planRequest.role.kind, requestId: draft.request_id });
      return { requestId: draft.request_id };
    },
    async requestFinish(summary) {
      const draft = finishRequestDraft(name, summary);
      await bus.send(draft);
      hooks.dispatch({ type: 'reported' });
      hooks.dispatch({ type: 'asked', kind: finishRequest.role.kind, requestId: draft.request_id });
      return { requestId: draft.request_id };
    },
  };
}
