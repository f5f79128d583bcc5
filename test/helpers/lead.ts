import { mkdirSync } from 'node:fs';
import { resolveModelSettings } from '../../src/model/settings.js';
import { LeadRuntime } from '../../src/lead/lead.js';
import { openStore } from '../../src/store/open-store.js';
import type { TeamStore } from '../../src/store/team-store.js';
import { teamPaths, type TeamPaths } from '../../src/team/paths.js';
import { tempHome } from './temp.js';

/** A lead runtime in this process, on the offline model, in a fresh state root; `cleanup` removes the root. */
export async function startOfflineLead(prefix: string): Promise<{ runtime: LeadRuntime; store: TeamStore; paths: TeamPaths; cleanup: () => void }> {
  const { home, cleanup } = tempHome(prefix);
  const paths = teamPaths(home, 'default');
  // As `teams repl` opens it: by descriptor (the file store unless TEAMS_STORE names another).
  const storeDescriptor = process.env.TEAMS_STORE ?? '';
  const store = await openStore(storeDescriptor, { home, team: paths.team });
  await store.roster.ensure();
  mkdirSync(paths.workspace, { recursive: true });
  const runtime = await LeadRuntime.start({ store, storeDescriptor, paths, settings: resolveModelSettings({ offline: true }, {}), cwd: paths.workspace, permissionMode: 'default', planReviewer: 'human', graceMs: 5000 });
  return { runtime, store, paths, cleanup };
}
