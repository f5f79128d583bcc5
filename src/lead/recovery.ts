import { LEAD, isOwnRequest, type RequestRecord } from '../protocol/index.js';
import { aliveMembers, describeMemberProcess, setMemberStatus, type LivenessView, type Member, type MemberStatus, type TeamStore } from '../store/index.js';
import { SendRefused, type TeamBus } from '../team/index.js';

/**
 * What a lead finds as it starts, left by an earlier lead that ended without cleaning up
 * (SIGKILL, a crash, a power loss). Teammates never outlive their lead (a host ends those of a
 * lead process that stopped beating, or as soon as another lead process beats), but the roster may
 * still say they work, with pids that are gone, and their requests and the earlier lead's own
 * stay pending in the human's queue, although approving them would reach nobody. Put right
 * once no other lead can be running, before this one reads the roster or the queue.
 */

/** The statuses only a running process holds. */
const RUNNING_STATUSES: ReadonlySet<MemberStatus> = new Set(['starting', 'working', 'idle', 'awaiting_approval', 'shutting_down']);

export type LeftBehind = {
  /** Teammates the roster says are running whose process is gone: they are to be marked crashed. */
  stale: Member[];
  /** Every teammate not running (stale or stopped) named in a pending request: nobody is left to answer it or wait for the answer. */
  gone: string[];
  /** The earlier lead's own pending requests of the human: the lead that waited for them is gone. */
  leadRequests: RequestRecord[];
};

/** What an earlier lead left behind, from the roster's members and the pending requests. */
export function leftBehind(members: readonly Member[], pending: readonly RequestRecord[], liveness: LivenessView): LeftBehind {
  const teammates = members.filter((m) => m.name !== LEAD);
  const alive = aliveMembers(teammates, liveness);
  const stale = teammates.filter((m) => RUNNING_STATUSES.has(m.status) && !alive.has(m.name));
  const gone = new Set<string>();
  for (const request of pending) {
    if (isOwnRequest(request)) continue;
    // A party no longer on the roster is gone too; the lead's side is this lead's to answer.
    for (const party of [request.from, request.to]) if (party !== LEAD && !alive.has(party)) gone.add(party);
  }
  return { stale, gone: [...gone], leadRequests: pending.filter(isOwnRequest) };
}

const TEAMMATE_GONE = (name: string) => `cancelled as the lead started: ${name}'s process is gone, so nothing waits for this or will answer it`;
const LEAD_GONE = 'cancelled as the lead started: the lead that asked is gone, so nothing waits for this answer';

/**
 * Mark the stale teammates crashed (pid null) and cancel every request nobody is left to
 * answer or wait for, each change audited (the requests by the bus). Returns a line for the
 * human per change; `teams run` and the REPL show them once they start.
 */
export async function recoverFromEarlierLead(store: TeamStore, bus: TeamBus, liveness: LivenessView = {}): Promise<string[]> {
  const members = (await store.roster.load())?.members ?? [];
  const left = leftBehind(members, await store.requests.list({ state: 'pending' }), liveness);
  const lines: string[] = [];
  for (const member of left.stale) {
    const pid = describeMemberProcess(member);
    await setMemberStatus(store.roster, member.name, 'crashed', { pid: null });
    await store.audit.append({ event: 'member', name: member.name, change: `status ${member.status} → crashed: its process (${pid}) was gone when the lead started` });
    lines.push(`${member.name} was ${member.status}, but its process (${pid}) ended with the earlier lead: marked crashed`);
  }
  for (const name of left.gone) {
    const cancelled = await bus.cancelPending(name, TEAMMATE_GONE(name));
    if (cancelled.length > 0) lines.push(`cancelled the pending requests of ${name}, whose process is gone: ${cancelled.map((r) => r.request_id).join(', ')}`);
  }
  const own: string[] = [];
  for (const request of left.leadRequests) {
    // Refused only when it is no longer pending (decided meanwhile from another terminal): that decision stands.
    const closed = await bus.closeOwnRequest(request.request_id, 'cancelled', LEAD, LEAD_GONE).then(
      () => true,
      (error: unknown) => {
        if (error instanceof SendRefused) return false;
        throw error;
      },
    );
    if (closed) own.push(request.request_id);
  }
  if (own.length > 0) lines.push(`cancelled the earlier lead's own pending requests, as the lead that asked is gone: ${own.join(', ')}`);
  return lines;
}

/** What the lead's model is told of it, with the next input it gets. */
export function recoveryNotice(lines: readonly string[]): string {
  return `[lead restarted] The earlier lead process ended without stopping its team. As this one started:\n${lines.map((line) => `- ${line}`).join('\n')}\nA teammate marked crashed can be started again with its conversation: spawn_teammate with respawn: true.`;
}
