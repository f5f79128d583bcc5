import { realpathSync } from 'node:fs';
import { Refused } from '../lib/index.js';

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // Not there (yet): compared as given.
    return path;
  }
}

/**
 * Refuses agents whose working directory is the team's state root itself. The sandbox hides
 * the state root from every command, but not a working directory (covered, the agents would
 * have nowhere to work): there the settings (rules, hooks, defaultMode), the journals and the
 * keys would be theirs to write, and the lead would act on what they wrote. Inside it (the
 * offline workspace) or around it (the default `./.teams`) the state stays covered.
 */
export function refuseStateRootAsWorkdir(cwd: string, stateRoot: string): void {
  if (real(cwd) !== real(stateRoot)) return;
  throw new Refused(`the agents' working directory ${cwd} is the team's state root: its settings, hooks and journals would be theirs to write. Work in the project (--workdir) and keep the state apart (the default ./.teams, or another --home)`);
}
