import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { refuseStateRootAsWorkdir } from '../../src/team/workdir-check.js';
import { LeadRuntime } from '../../src/lead/lead.js';
import { resolveModelSettings } from '../../src/model/settings.js';
import { openFileStore } from '../../src/store/file/file-store.js';
import { teamPaths } from '../../src/team/paths.js';
import { Refused } from '../../src/lib/refused.js';
import { tempHome } from '../helpers/temp.js';
import { runCli } from '../helpers/cli.js';
import { teamAnchor } from '../../src/host/host-files.js';
import { trustToken } from '../../src/host/trust-token.js';

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

test('teams host refuses a --workdir that is its state root, before it starts anything', async (t) => {
  const { home, cleanup } = tempHome('teams-host-workdir-');
  t.after(cleanup);
  const paths = teamPaths(home, 'default');
  await openFileStore(paths).roster.ensure();
  const refused = await runCli(home, ['host', '--trust', trustToken(teamAnchor(paths)), '--name', 'build', '--workdir', home]);
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /is the team's state root: its settings, hooks and journals would be theirs to write/);
  assert.deepEqual((await openFileStore(paths).hosts.list()).hosts, [], 'no beat: it never started');
});

