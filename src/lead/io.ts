import { draftFrom, summarize, BROADCAST, LEAD } from '../protocol/index.js';
import type { TeamBus } from '../team/index.js';
import { memberNames, type TeamStore, type Task } from '../store/index.js';
import type { HookVerdict } from '../hooks/index.js';
import type { LeadTeamIO, Spawned, SpawnSpec } from '../tools/index.js';
import { leadBoardIO } from '../teammate/index.js';
import { Refused } from '../lib/index.js';

/** The lead runtime's actions the lead's tools may take. */
export type LeadActions = {
  spawn(spec: SpawnSpec): Promise<Spawned>;
  respawn(name: string): Promise<{ pid: number; cancelled: string[]; planMode: boolean }>;
  requestShutdown(teammate: string, reason: string | undefined): Promise<{ requestId: string }>;
  decide(requestId: string, decision: { approve: boolean; note?: string }): Promise<unknown>;
  /** The project's task_completed hooks, on a task the lead's model marks completed. */
  checkCompletion(task: Task): Promise<HookVerdict>;
};

/** The team tools' view of the team, for the lead. */
export function leadTeamIO(bus: TeamBus, store: TeamStore, actions: LeadActions): LeadTeamIO {
  return {
    self: LEAD,
    async sendMessage(to, content) {
      return { id: (await bus.send({ type: 'message', from: LEAD, to, text: content, summary: summarize(content) })).id };
    },
    async send(draft) {
      return { id: (await bus.send(draftFrom(LEAD, draft))).id };
    },
    async broadcast(content) {
      const sent = await bus.send({ type: 'broadcast', from: LEAD, to: BROADCAST, text: content, summary: summarize(content) });
      const team = await store.roster.load();
      return { id: sent.id, recipients: team ? memberNames(team).filter((m) => m !== LEAD) : [] };
    },
    listTeammates: async () => ((await store.roster.load())?.members ?? []).filter((m) => m.name !== LEAD),
    spawnTeammate: (spec) => actions.spawn(spec),
    respawnTeammate: (name) => actions.respawn(name),
    requestShutdown: (teammate, reason) => actions.requestShutdown(teammate, reason),
    requestStatus: (requestId) => store.requests.get(requestId),
    board: leadBoardIO(store.tasks, (task) => actions.checkCompletion(task)),
    // The lead's model decides plans, and only plans (`--plan-reviewer lead`): a permission,
    // finish or shutdown request is the human's, whatever id a prompt-injected model passes.
    async reviewPlan(requestId, approve, feedback) {
      const record = await store.requests.get(requestId);
      if (!record) throw new Refused(`unknown request_id '${requestId}'`);
      if (record.kind !== 'plan') {
        throw new Refused(`${requestId} is a ${record.kind} request from ${record.from}, not a plan: plan_approval_response decides plans only, and only the human decides ${record.kind} requests`);
      }
      await actions.decide(requestId, { approve, note: feedback });
    },
  };
}
