import type { PermissionMode } from '../protocol/index.js';

/**
 * How far a teammate's permission mode may go, at spawn and by a later mode_set. Pure, so the
 * rule is one place and tested without processes.
 *
 * The rule: a mode the lead's model asks for (spawn_teammate) is never more permissive than
 * the lead's own. A mode the human asks for (`/spawn --mode`, `/mode`, `teams spawn --mode`,
 * `teams mode`: typed by a person, never by a model) is the human's grant and may go further.
 * Plan mode counts as the least permissive: it only reads until a plan is approved.
 */

const RANK: Record<PermissionMode, number> = { plan: 0, default: 1, 'accept-edits': 2, bypass: 3 };

/** Who asks for the mode: the lead's model (bounded by the lead's mode) or the human (a grant). */
export type ModeAsker = 'model' | 'human';

/** Whether `a` allows more than `b`. */
export function morePermissive(a: PermissionMode, b: PermissionMode): boolean {
  return RANK[a] > RANK[b];
}

/** Why `asker` may not give a teammate `requested` under a lead in `leadMode`; undefined when it may. */
export function modeGrantProblem(requested: PermissionMode, leadMode: PermissionMode, asker: ModeAsker): string | undefined {
  if (asker === 'human') return undefined;
  // A lead in plan mode hands its teammates 'default' (modeAfterPlan): the bound is the same.
  const bound: PermissionMode = leadMode === 'plan' ? 'default' : leadMode;
  if (!morePermissive(requested, bound)) return undefined;
  return `permission mode '${requested}' is more permissive than the lead's own ('${bound}'): only the human can grant it (/spawn --mode or /mode)`;
}
