import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { refuseWorkdirInStateRoot } from '../../src/team/workdir-check.js';
import { LeadRuntime } from '../../src/lead/lead.js';
import { resolveModelSettings } from '../../src/model/settings.js';
import { openFileStore } from '../../src/store/file/file-store.js';
import { teamPaths } from '../../src/team/paths.js';
import { Refused } from '../../src/lib/refused.js';
import { tempHome } from '../helpers/temp.js';
import { runCli } from '../helpers/cli.js';
import { teamAnchor } from '../../src/host/host-files.js';
import { trustToken } from '../../src/host/trust-token.js';

test("agents may not work in the team's state root or a team's directory there (its settings, hooks and mailboxes would be theirs to write); around it, or in the workspace, they may", async (t) => {
  const { home: base, cleanup } = tempHome('teams-workdir-check-');
  t.after(cleanup);
  const state = join(base, '.teams');
  mkdirSync(join(state, 'default', 'workspace'), { recursive: true });
  symlinkSync(state, join(base, 'link'));
  const refused = (error: unknown) => error instanceof Refused && /holds the team's state \(.*\): its settings, hooks and journals would be theirs to write/.test(error.message);
  const paths = teamPaths(state, 'default');
  assert.throws(() => refuseWorkdirInStateRoot(state, paths), refused);
  assert.throws(() => refuseWorkdirInStateRoot(join(base, 'link'), paths), refused, 'through a symlink too');
  // A team's directory: its mailboxes, roster and control token, bound writable over what hides them.
  assert.throws(() => refuseWorkdirInStateRoot(paths.root, paths), refused);
  assert.throws(() => refuseWorkdirInStateRoot(join(base, 'link', 'default'), paths), refused);
  refuseWorkdirInStateRoot(base, paths);
  refuseWorkdirInStateRoot(paths.workspace, paths);
  refuseWorkdirInStateRoot(join(paths.workspace, 'src'), paths);
  refuseWorkdirInStateRoot(`${state}-sibling`, paths);
  // A directory of its own in the state root holds none of the state (a host's work directory, say).
  mkdirSync(join(state, 'host-work'));
  refuseWorkdirInStateRoot(join(state, 'host-work'), paths);

  // The lead refuses before it starts anything: no lead on the roster, no process left.
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
  assert.match(refused.stderr, /holds the team's state \(.*\): its settings, hooks and journals would be theirs to write/);
  assert.deepEqual((await openFileStore(paths).hosts.list()).hosts, [], 'no beat: it never started');
});

