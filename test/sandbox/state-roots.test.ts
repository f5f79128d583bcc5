import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stateRootsAround } from '../../src/sandbox/state-roots.js';
import { launcherFor } from '../../src/sandbox/launcher.js';
import { realShellIO } from '../../src/tools/shell.js';
import { realFileIO } from '../../src/tools/files.js';
import { FULL_GRANT } from '../../src/policy/grant.js';
import { controlSocketPath, hiddenFromAgents, teamPaths } from '../../src/team/paths.js';

// Outside /tmp, which the sandbox replaces with a private one.
const base = mkdtempSync('/var/tmp/teams-state-roots-');
after(() => rmSync(base, { recursive: true, force: true }));

/** A team's state with its secrets in it, as a lead leaves it. */
function stateRoot(home: string, team: string, secret: string): void {
  mkdirSync(join(home, team, 'workspace'), { recursive: true });
  writeFileSync(join(home, 'settings.json'), `{"permissions":{"allow":["${secret} SETTINGS"]}}\n`);
  writeFileSync(join(home, team, 'control.token'), `${secret} TOKEN\n`);
}

// An outer project with an inner one in its working directory, each with its default state
// root; a sibling project whose --home put its state elsewhere, known from the registry only.
const outer = join(base, 'outer');
const inner = join(outer, 'packages', 'inner');
const siblingState = join(base, 'sibling-state');
stateRoot(join(outer, '.teams'), 'alpha', 'OUTER');
stateRoot(join(inner, '.teams'), 'beta', 'INNER');
stateRoot(siblingState, 'gamma', 'SIBLING');
writeFileSync(join(inner, 'code.txt'), 'inner code\n');
writeFileSync(join(outer, 'code.txt'), 'outer code\n');
const registry = join(base, 'registry');
writeFileSync(registry, `{not json\n${JSON.stringify({ root: siblingState })}\n${JSON.stringify({ root: join(base, 'gone', '.teams') })}\n`);
const env = { ...process.env, TEAMS_REGISTRY: registry };
process.env.TEAMS_REGISTRY = registry;

const secrets = `${outer}/.teams/settings.json ${outer}/.teams/alpha/control.token ${inner}/.teams/settings.json ${inner}/.teams/beta/control.token ${siblingState}/settings.json ${siblingState}/gamma/control.token`;

function shellFor(own: string[]) {
  return realShellIO({ timeoutMs: 20_000, launch: launcherFor({ kind: 'bwrap', network: 'none', bwrap: 'bwrap' }, () => ({ writable: true, hidden: own }), env) });
}

describe('every state root around a command, not only its team', () => {
  test('found above, below and in the registry; a registered root that is gone and a garbled line are skipped', () => {
    const fromInner = stateRootsAround(inner, [], env).roots.sort();
    assert.deepEqual(fromInner, [join(inner, '.teams'), join(outer, '.teams'), siblingState].sort());
    const fromOuter = stateRootsAround(outer, [join(outer, '.teams')], env).roots.sort();
    assert.deepEqual(fromOuter, [join(inner, '.teams'), join(outer, '.teams'), siblingState].sort());
    // Too deep below the working directory to be walked to: found only if registered.
    assert.deepEqual(stateRootsAround(outer, [], { TEAMS_REGISTRY: join(base, 'none') }).roots.sort(), [join(inner, '.teams'), join(outer, '.teams')].sort());
    assert.deepEqual(stateRootsAround(join(base, 'sibling-state'), [], { TEAMS_REGISTRY: join(base, 'none') }).roots, []);
    assert.deepEqual(stateRootsAround(base, [], { TEAMS_REGISTRY: join(base, 'none') }).roots.sort(), [join(inner, '.teams'), join(outer, '.teams')].sort());
    const deepInner = join(outer, 'a', 'b', 'c', 'd', '.teams');
    mkdirSync(deepInner, { recursive: true });
    try {
      assert.ok(!stateRootsAround(outer, [], { TEAMS_REGISTRY: join(base, 'none') }).roots.includes(deepInner));
      assert.ok(stateRootsAround(join(outer, 'a'), [], { TEAMS_REGISTRY: join(base, 'none') }).roots.includes(deepInner));
    } finally {
      rmSync(join(outer, 'a'), { recursive: true, force: true });
    }
  });

  test('a deep root\'s control socket directory, under the temp dir, is hidden with it', () => {
    const deep = join(base, 'd'.repeat(60), 'e'.repeat(30), '.teams');
    mkdirSync(join(deep, 'delta'), { recursive: true });
    const socketDir = dirname(controlSocketPath(join(deep, 'delta')));
    assert.ok(socketDir.startsWith(tmpdir()), socketDir);
    mkdirSync(socketDir, { recursive: true });
    try {
      const { dirs } = stateRootsAround(dirname(deep), [], { TEAMS_REGISTRY: join(base, 'none') });
      assert.deepEqual(dirs, [deep, socketDir]);
    } finally {
      rmSync(socketDir, { recursive: true, force: true });
      rmSync(join(base, 'd'.repeat(60)), { recursive: true, force: true });
    }
  });

  test('the inner project\'s teammate reads neither the outer project\'s state nor the sibling\'s; its own code stays readable', async () => {
    const run = await shellFor(hiddenFromAgents(teamPaths(join(inner, '.teams'), 'beta'))).exec(`cat ${secrets} ${inner}/code.txt ${outer}/code.txt`, { cwd: inner, grant: FULL_GRANT });
    assert.doesNotMatch(run.stdout, /SETTINGS|TOKEN/, run.stdout);
    assert.match(run.stdout, /inner code\nouter code/);
    // Without the sandbox the same command reads them all: the check can fail.
    const plain = await realShellIO().exec(`cat ${secrets}`, { cwd: inner });
    assert.equal(plain.stdout.match(/SETTINGS|TOKEN/g)?.length, 6);
  });

  test('the outer project\'s teammate does not read the inner project\'s state inside its working directory, nor the sibling\'s', async () => {
    const run = await shellFor(hiddenFromAgents(teamPaths(join(outer, '.teams'), 'alpha'))).exec(`cat ${secrets} packages/inner/code.txt; ls -A packages/inner/.teams | wc -l`, { cwd: outer, grant: FULL_GRANT });
    assert.doesNotMatch(run.stdout, /SETTINGS|TOKEN/, run.stdout);
    assert.match(run.stdout, /inner code\n0\n/);
  });

  test('the file tools refuse another team\'s state inside the working directory too', async () => {
    const files = realFileIO(outer, hiddenFromAgents(teamPaths(join(outer, '.teams'), 'alpha')));
    await assert.rejects(files.readText('packages/inner/.teams/beta/control.token'), /state directory/);
    await assert.rejects(files.writeText('packages/inner/.teams/settings.json', '{}'), /state directory/);
    assert.equal(await files.readText('packages/inner/code.txt'), 'inner code\n');
  });

  test('a working directory that is a registered state root itself (--home at a project) stays visible', async () => {
    const run = await shellFor([]).exec('cat gamma/control.token', { cwd: siblingState, grant: FULL_GRANT });
    assert.equal(run.stdout, 'SIBLING TOKEN\n');
  });

  test('the offline workspace inside a state root stays usable, the rest of every root hidden', async () => {
    const paths = teamPaths(join(outer, '.teams'), 'alpha');
    const run = await shellFor(hiddenFromAgents(paths)).exec(`echo made > made.txt && cat made.txt; cat ${secrets}`, { cwd: paths.workspace, grant: FULL_GRANT });
    assert.match(run.stdout, /^made\n/);
    assert.doesNotMatch(run.stdout, /SETTINGS|TOKEN/, run.stdout);
    const files = realFileIO(paths.workspace, hiddenFromAgents(paths));
    assert.equal(await files.readText('made.txt'), 'made\n');
    assert.deepEqual(await files.writeText('new.txt', 'x'), { created: true });
  });
});
