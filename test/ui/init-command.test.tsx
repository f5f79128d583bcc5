import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup as cleanupInk } from 'ink-testing-library';
import { resolveModelSettings } from '../../src/model/settings.js';
import { LeadRuntime } from '../../src/lead/lead.js';
import { openFileStore } from '../../src/store/file/file-store.js';
import { teamPaths } from '../../src/team/paths.js';
import { killAll } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { KEYS } from './terminal.js';
import { renderLiveRepl } from './live-repl.js';

after(killAll);

test("/init asks the lead's model to look at the project and write AGENTS.md; the offline demo writes a fixed one", async () => {
  const { home, cleanup } = tempHome('teams-ui-init-');
  const paths = teamPaths(home, 'default');
  const team = openFileStore(paths);
  await team.roster.ensure();
  mkdirSync(paths.workspace, { recursive: true });
  // The demo script itself (no script given), in accept-edits: the write runs unasked.
  const settings = resolveModelSettings({ offline: true }, {});
  const runtime = await LeadRuntime.start({ store: team, paths, settings, cwd: paths.workspace, permissionMode: 'accept-edits', planReviewer: 'human', graceMs: 3000 });
  const { disconnect, screen, type, text } = await renderLiveRepl(runtime);
  try {
    const file = join(paths.workspace, 'AGENTS.md');
    assert.equal(existsSync(file), false);
    text('/init');
    type(KEYS.enter);
    await waitFor(() => screen().includes('asked the lead to look at the project and write a first AGENTS.md') || undefined, `the command's line; screen:\n${screen()}`);
    await waitFor(() => screen().includes('Created AGENTS.md: every agent of the team reads it') || undefined, `the lead's closing words; screen:\n${screen()}`, 20_000);
    assert.match(readFileSync(file, 'utf8'), /^# AGENTS\.md\n[\s\S]*Written by the offline demo model for \/init/);
  } finally {
    disconnect();
    cleanupInk();
    await runtime.stop();
    cleanup();
  }
});
