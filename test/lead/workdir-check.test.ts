import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { refuseStateRootAsWorkdir } from '../../src/lead/workdir-check.js';
import { LeadRuntime } from '../../src/lead/lead.js';
import { resolveModelSettings } from '../../src/model/settings.js';
import { openFileStore } from '../../src/store/file/file-store.js';
import { teamPaths } from '../../src/team/paths.js';
import { Refused } from '../../src/lib/refused.js';
import { tempHome } from '../helpers/temp.js';

test("agents may not work in the team's state root itself (its settings and hooks would be theirs to write); around it or inside it they may", async (t) => {
  const { home: base, cleanup } = tempHome('teams-workdir-check-');
  t.after(cleanup);
  const state = join(base, '.teams');
  mkdirSync(join(state, 'default', 'workspace'), { recursive: true });
  symlinkSync(state, join(base, 'link'));
  const refused = (error: unknown) => error instanceof Refused && /is the team's state root: its settings, hooks and journals would be theirs to write/.test(error.message);
  assert.throws(() => refuseStateRootAsWorkdir(state, state), refused);
  assert.throws(() => refuseStateRootAsWorkdir(join(base, 'link'), state), refused, 'through a symlink too');
  refuseStateRootAsWorkdir(base, state);
  refuseStateRootAsWorkdir(join(state, 'default', 'workspace'), state);

  // The lead refuses before it starts anything: no lead on the roster, no process left.
  const paths = teamPaths(state, 'default');
  const store = openFileStore(paths);
  await assert.rejects(LeadRuntime.start({ store, paths, settings: resolveModelSettings({ offline: true }, {}), cwd: state, permissionMode: 'default', planReviewer: 'human' }), refused);
  assert.equal((await store.roster.load())?.members.find((m) => m.name === 'lead')?.pid ?? null, null);
});
