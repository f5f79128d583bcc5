import { Refused } from '../lib/index.js';
import { findMember, memberIsAlive, requireMember, type Member, type WorktreeRecord, type TeamStore } from '../store/index.js';
import type { TeamPaths } from '../team/index.js';
import { requireWorktree, worktreeDiff } from './land.js';
import { leftoverRecord } from './leftovers.js';
import { syncWorktreeBranch } from './head.js';
import { mergeWorktree } from './merge.js';
import { branchExists, removeWorktree, worktreeExists } from './worktree.js';

/**
 * /diff, /merge and /discard, and `teams diff|merge|discard`: one implementation for the REPL
 * and the command line, each the human's action on a teammate's worktree named on the roster.
 * Merge and discard are refused while the teammate runs: its leftovers are committed first,
 * which must not race its own writes, and a discard under a running process would lose them.
 */
export type WorktreeAction = 'diff' | 'merge' | 'discard';

/** What of the team's store the actions use: the roster to find the worktree, the audit log to record what was done. */
export type WorktreeStore = Pick<TeamStore, 'team'> & { roster: Pick<TeamStore['roster'], 'load'>; audit: Pick<TeamStore['audit'], 'append'> };

/** The member's worktree; else (with `paths`) the one left under the team's state by that name. */
async function worktreeOf(store: WorktreeStore, name: string, paths: TeamPaths | undefined): Promise<{ record: WorktreeRecord; member?: Member }> {
  const team = await store.roster.load();
  if (!team) throw new Refused(`no team '${store.team}' yet`);
  const member = findMember(team, name);
  if (member?.worktree) return { record: member.worktree, member };
  // Off the roster, or spawned since without one: a worktree kept from before is still its own.
  const left = paths === undefined ? undefined : await leftoverRecord(paths, name, team.members);
  if (left) return member ? { record: left, member } : { record: left };
  return { record: requireWorktree(member ?? requireMember(team, name)) };
}

export async function worktreeAction(store: WorktreeStore, name: string, action: WorktreeAction, paths?: TeamPaths): Promise<string> {
  const { record, member } = await worktreeOf(store, name, paths);
  const running = member !== undefined && memberIsAlive(member);
  // A directory removed by hand leaves its branch, and the work on it: that is still there to act on.
  const there = (await worktreeExists(record)) || (await branchExists(record));
  // Its commits moved its worktree's HEAD only: its branch follows before anything reads it.
  if (there) await syncWorktreeBranch(record);
  if (action === 'diff') {
    if (!there) throw new Refused(`${name}'s worktree is gone (merged, discarded or removed with nothing unmerged)`);
    const { diff, warning } = await worktreeDiff(record, name);
    const shown = diff === '' ? `${name} changed nothing since ${record.base.slice(0, 12)}` : diff.replace(/\n$/, '');
    // First and last: a long diff must not scroll the warning out of sight.
    return warning === undefined ? shown : `${warning}\n\n${shown}\n\n${warning}`;
  }
  if (running) throw new Refused(`${name} is running: shut it down first (its leftovers are committed as it stops), then ${action}`);
  if (action === 'discard') {
    if (!there) throw new Refused(`${name}'s worktree is gone already`);
    await removeWorktree(record);
    await store.audit.append({ event: 'member', name, change: `worktree discarded (${record.branch} deleted)` });
    return `discarded ${name}'s work: its worktree and ${record.branch} are gone`;
  }
  if (!there) throw new Refused(`${name}'s worktree is gone: nothing to merge`);
  const { merged, kept } = await mergeWorktree(record, name);
  const what = merged === 0 ? 'nothing to merge (its branch had no new commits)' : `merged ${merged} commit${merged === 1 ? '' : 's'} of ${record.branch} into your branch`;
  await store.audit.append({ event: 'member', name, change: `worktree ${merged === 0 ? 'removed, nothing to merge' : `merged (${merged} commits)`}${kept === undefined ? '' : '; git would not remove it'}` });
  if (kept !== undefined) return `${name}: ${what}; its worktree and branch are kept, git would not remove them (${kept})`;
  return `${name}: ${what}; its worktree and branch are removed`;
}
