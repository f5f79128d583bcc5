import { realpathSync } from 'node:fs';
import { relative, isAbsolute } from 'node:path';
import { Refused } from '../lib/index.js';
import type { TeamPaths } from './paths.js';

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // Not there (yet): compared as given.
    return path;
  }
}

/** Whether `path` is `dir` or lies inside it. */
function within(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Refuses agents (a lead's, a host's) whose working directory holds the team's state: the state
 * root itself, or the team's directory in it, the scratch workspace apart. The sandbox hides the
 * state root from every command, but a working directory is bound over what hides it (covered,
 * the agents would have nowhere to work): there the settings (rules, hooks, defaultMode), the
 * journals, the mailboxes and the control token would be theirs to write, and the lead would act
 * on what they wrote. Around it (the default `./.teams`), in the workspace, or in a directory of
 * its own inside the state root, none of that is in reach.
 */
export function refuseWorkdirInStateRoot(cwd: string, paths: Pick<TeamPaths, 'home' | 'root' | 'workspace'>): void {
  const dir = real(cwd);
  const holdsState = dir === real(paths.home) || (within(dir, real(paths.root)) && !within(dir, real(paths.workspace)));
  if (!holdsState) return;
  throw new Refused(`the agents' working directory ${cwd} holds the team's state (${paths.home}): its settings, hooks and journals would be theirs to write. Work in the project (--workdir) and keep the state apart (the default ./.teams, or another --home)`);
}
