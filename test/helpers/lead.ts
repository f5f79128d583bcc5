import { mkdirSync } from 'node:fs';
import { resolveModelSettings } from '../../src/model/settings.js';
import { LeadRuntime } from '../../src/lead/lead.js';
import { openFileStore } from '../../src/store/file/file-store.js';
import type { TeamStore } from '../../src/store/team-store.js';
import { teamPaths, type TeamPaths } from '../../src/team/paths.js';
import { tempHome } from './temp.js';

/** A lead runtime in this process, on the offline model, in a fresh state root; `cleanup` removes the root. */
export async function startOfflineLead(prefix: string): Promise<{ runtime: LeadRuntime; store: TeamStore; paths: TeamPaths; cleanup: () => void }> {
  const { home, cleanup } = tempHome(prefix);
  const paths = teamPaths(home, 'default');
  const store = openFileStore(paths);
  await store.roster.ensure();
  mkdirSync(paths.workspace, { recursive: true });
  const runtime = await LeadRuntime.start({ store, paths, settings: resolveModelSettings({ offline: true }, {}), cwd: paths.workspace, permissionMode: 'default', planReviewer: 'human', graceMs: 5000 });
  return { runtime, store, paths, cleanup };
}
