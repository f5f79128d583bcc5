import { isRunning } from '../lib/index.js';
import type { Member } from './roster.js';

/**
 * Whether a member's process still runs, as seen from this machine: the one check the lead, its
 * recovery and respawn, `teams member remove` and the worktree commands all make. A pid names a
 * process only on the machine it was read on, so a member on another host is judged by that
 * host's heartbeat instead.
 */

/** Whether the process with `pid`, started at `start` (when known), still runs here: proc-start.ts isRunning, or a test's stand-in. */
export type ProcessCheck = (pid: number, start: string | undefined) => boolean;

/**
 * How long a host may go without a proven beat and still count as running its teammates: with a
 * beat every 500 ms and the lead looking every 250 ms, a host killed is taken for dead within 3 s.
 * One threshold for the lead's spawner, `teams hosts` and every liveness check.
 */
export const HOST_STALE_MS = 2_000;

/** What liveness is judged from, beyond the member itself. Empty: this machine's processes only. */
export type LivenessView = {
  /** Each host's last proven heartbeat (src/host/host-liveness.ts), on the store's clock; a host missing here has not been heard from. */
  hosts?: ReadonlyMap<string, { last_beat: string }>;
  /** The store's clock now (the one that stamped the beats: comparing with this machine's would add its skew). */
  now?: Date;
  /** The host name this machine itself goes by, if any: its members' pids are pids here. */
  here?: string;
  /** The local pid check; proc-start.ts isRunning unless a test stands in. */
  processRunning?: ProcessCheck;
};

export function memberIsAlive(member: Pick<Member, 'pid' | 'pid_start' | 'host'>, view: LivenessView = {}): boolean {
  if (member.pid === null) return false;
  if (member.host === undefined || member.host === view.here) return (view.processRunning ?? isRunning)(member.pid, member.pid_start);
  // Another machine's pid says nothing here: its host's beat vouches for it, and without one nothing does.
  const beat = view.hosts?.get(member.host);
  if (beat === undefined || view.now === undefined) return false;
  const age = view.now.getTime() - Date.parse(beat.last_beat);
  // A beat stamped after `now` (read just after `now` was) is fresh, not a negative age to distrust.
  return Number.isFinite(age) && age <= HOST_STALE_MS;
}

/** "pid 4242", "pid 4242 on host 'build'" or "no pid yet": a member's process, named for a person, its machine with it. */
export function describeMemberProcess(member: Pick<Member, 'pid' | 'host'>): string {
  if (member.pid === null) return 'no pid yet';
  return member.host === undefined ? `pid ${member.pid}` : `pid ${member.pid} on host '${member.host}'`;
}

/** The names of the members whose processes run, as `memberIsAlive` judges each. */
export function aliveMembers(members: readonly Member[], view: LivenessView = {}): Set<string> {
  return new Set(members.filter((member) => memberIsAlive(member, view)).map((member) => member.name));
}
