import { setMemberWorktree, type Member, type WorktreeRecord, type TeamStore } from '../store/index.js';
import type { TeamPaths } from '../team/index.js';
import { createWorktree, describeSettled, sealWorktreeConfig, settleWorktree, worktreeExists, detachWorktreeHead } from '../worktree/index.js';
import type { LeadInput } from './state.js';

/**
 * The lead's side of teammates' worktrees: one made (or found again, on a respawn) before the
 * process starts, and settled when it stops: leftovers committed, the worktree removed unless
 * its branch holds unmerged work, which is kept and told to the human (audit and info line).
 */
export class TeammateWorktrees {
  constructor(
    private readonly store: TeamStore,
    private readonly paths: TeamPaths,
    /** The lead's working directory: the repository a worktree is made from. */
    private readonly cwd: string,
    /** The lead takes in what became of a worktree (step.ts). */
    private readonly step: (input: LeadInput) => Promise<void>,
  ) {}

  /**
   * Where the teammate will work: its worktree when asked for one (`wanted`; one kept from an
   * earlier spawn of that name goes on, its work with it), or on a respawn (`resume`) when it had
   * one (the same worktree, or a new one from the lead's HEAD once that was removed); undefined
   * for the lead's own directory.
   */
  async prepare(name: string, member: Member | undefined, wanted: boolean, resume: boolean): Promise<WorktreeRecord | undefined> {
    const earlier = member?.worktree;
    if (!wanted && !resume) return undefined;
    if (earlier !== undefined && (await worktreeExists(earlier))) {
      await sealWorktreeConfig(earlier.path);
      // One made before HEADs were detached: its commands could no longer commit on the branch.
      await detachWorktreeHead(earlier);
      return earlier;
    }
    if (!wanted && earlier === undefined) return undefined;
    return createWorktree(this.cwd, this.paths, name);
  }

  /**
   * Record it on the roster (the member exists by then); a spawn without one clears the record of
   * an earlier one, which, if kept, stays where `teams status`, /merge and `teams gc` find it.
   */
  async record(name: string, earlier: Member | undefined, worktree: WorktreeRecord | undefined): Promise<void> {
    if (worktree !== undefined || earlier?.worktree !== undefined) await setMemberWorktree(this.store.roster, name, worktree ?? null);
  }

  /** The teammate stopped, however: settle its worktree, if it had one, and say what became of it. */
  async settle(member: Member | undefined): Promise<void> {
    const worktree = member?.worktree;
    if (member === undefined || worktree === undefined) return;
    const settled = await settleWorktree(worktree, member.name);
    if (settled === undefined) return;
    const text = describeSettled(member.name, worktree, settled);
    await this.store.audit.append({ event: 'member', name: member.name, change: text });
    await this.step({ type: 'notice', text });
  }
}
