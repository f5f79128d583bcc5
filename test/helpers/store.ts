import { openFileStore } from '../../src/store/file/file-store.js';
import { fileLayout } from '../../src/store/file/layout.js';
import type { TeamStore } from '../../src/store/team-store.js';
import { teamPaths, type TeamPaths } from '../../src/team/paths.js';

/** A team's store as any of its processes opens it (the file store, under `home`). */
export function storeOf(home: string, team = 'default'): TeamStore {
  return openFileStore(teamPaths(home, team));
}

/** The file store's own files of a team: for tests about those files themselves (torn, corrupt, forged). */
export function filesOf(paths: TeamPaths): ReturnType<typeof fileLayout> {
  return fileLayout(paths.root);
}
