import { after, test } from 'node:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolveModelSettings } from '../../src/model/settings.js';
import { LeadRuntime } from '../../src/runtime/lead.js';
import type { LeadEvent } from '../../src/runtime/lead-events.js';
import { ensureTeam } from '../../src/team/config.js';
import { teamPaths } from '../../src/team/paths.js';
import { killAll } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

after(killAll);

test('a torn or foreign config.json seen by the lead\'s watcher is a problem shown, not a crash', async () => {
  const { home, cleanup } = tempHome('teams-lead-config-');
  const paths = teamPaths(home, 'default');
  ensureTeam(paths);
  mkdirSync(paths.workspace, { recursive: true });
  const runtime = await LeadRuntime.start({ paths, settings: resolveModelSettings({ offline: true }, {}), cwd: paths.workspace, permissionMode: 'default', planReviewer: 'human' });
  const events: LeadEvent[] = [];
  runtime.events.subscribe((event) => events.push(event));
  try {
    const good = readFileSync(paths.config, 'utf8');
    writeFileSync(paths.config, good.slice(0, 20));
    await waitFor(() => events.find((e) => e.type === 'problem' && /config\.json is not valid JSON/.test(e.text)), 'the torn config reported');
    writeFileSync(paths.config, good);
    await waitFor(() => events.find((e) => e.type === 'team'), 'the roster read again once the file is whole');
  } finally {
    await runtime.stop();
    cleanup();
  }
});
