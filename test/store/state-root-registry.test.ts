import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readStateRootRegistry, registerStateRoot, stateRootRegistryPath } from '../../src/store/state-root-registry.js';
import { storeOf } from '../helpers/store.js';
import { DIST, killAll, spawnNode } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';

const temp = tempHome('teams-registry-');
after(async () => {
  await killAll();
  temp.cleanup();
});
let registries = 0;
const envWith = () => ({ TEAMS_REGISTRY: join(temp.home, `r${registries++}`, 'roots') });

test('the registry lives in the user state directory unless TEAMS_REGISTRY puts it elsewhere', () => {
  assert.equal(stateRootRegistryPath({ XDG_STATE_HOME: '/state' }), '/state/teams/roots');
  assert.match(stateRootRegistryPath({}), /\/\.local\/state\/teams\/roots$/);
  assert.equal(stateRootRegistryPath({ TEAMS_REGISTRY: '/x/roots', XDG_STATE_HOME: '/state' }), '/x/roots');
});

/** A state root that exists (the registry drops the ones that are gone). */
let made = 0;
function root(): string {
  const path = join(temp.home, 'projects', `p${made++}`, '.teams');
  mkdirSync(path, { recursive: true });
  return path;
}

test('a root is registered once, made absolute; a missing registry is simply empty', () => {
  const env = envWith();
  const [p, q] = [root(), root()];
  assert.deepEqual(readStateRootRegistry(env).roots, []);
  assert.equal(registerStateRoot(relative(process.cwd(), p), env), undefined);
  assert.equal(registerStateRoot(p, env), undefined);
  assert.equal(registerStateRoot(q, env), undefined);
  assert.deepEqual(readStateRootRegistry(env).roots, [p, q]);
  assert.equal(readFileSync(env.TEAMS_REGISTRY, 'utf8').split(p).length, 2);
});

test('garbled lines are skipped and reported, the good ones still read; the next registration drops them and the roots that are gone', () => {
  const env = envWith();
  const [a, b] = [root(), root()];
  mkdirSync(join(env.TEAMS_REGISTRY, '..'), { recursive: true });
  writeFileSync(env.TEAMS_REGISTRY, `${JSON.stringify({ root: a })}\n{not json\n{"root":"relative/.teams"}\n{"root":42}\n{"root":"/gone/.teams"}\n`);
  appendFileSync(env.TEAMS_REGISTRY, '{"root":"/torn');
  const before = readStateRootRegistry(env);
  assert.deepEqual(before.roots, [a, '/gone/.teams']);
  assert.deepEqual(before.problems.map((p) => p.line), [2, 3, 4]);
  assert.equal(registerStateRoot(b, env), undefined);
  assert.deepEqual(readStateRootRegistry(env), { path: env.TEAMS_REGISTRY, roots: [a, b], problems: [] });
});

test('an unreadable registry (a directory) hides nothing more and says why; registering into it fails with a reason, without throwing', () => {
  const env = envWith();
  mkdirSync(env.TEAMS_REGISTRY, { recursive: true });
  const read = readStateRootRegistry(env);
  assert.deepEqual(read.roots, []);
  assert.match(read.problems[0]?.reason ?? '', /cannot be read/);
  assert.match(registerStateRoot(root(), env) ?? '', /was not added to/);
});

test('several processes registering at once lose no root', async () => {
  const env = envWith();
  const module = pathToFileURL(join(DIST, 'src/store/state-root-registry.js')).href;
  const processes = 6;
  const each = 25;
  const perProcess = Array.from({ length: processes }, () => Array.from({ length: each }, root));
  const children = Array.from({ length: processes }, (_, p) =>
    spawnNode('-e', [`import(${JSON.stringify(module)}).then((m) => { for (const root of ${JSON.stringify(perProcess[p])}) { const why = m.registerStateRoot(root); if (why) throw new Error(why); } })`], {
      env: { ...process.env, ...env },
    }),
  );
  const exits = await Promise.all(children.map((c) => c.exited));
  assert.deepEqual(exits.map((e) => e.code), children.map(() => 0), children.map((c) => c.stderr()).join(''));
  const { roots, problems } = readStateRootRegistry(env);
  assert.equal(roots.length, processes * each);
  assert.deepEqual(problems, []);
});

test('creating a team registers its state root', async (t) => {
  const env = envWith();
  const saved = process.env.TEAMS_REGISTRY;
  process.env.TEAMS_REGISTRY = env.TEAMS_REGISTRY;
  t.after(() => (saved === undefined ? delete process.env.TEAMS_REGISTRY : (process.env.TEAMS_REGISTRY = saved)));
  const home = join(temp.home, 'project', '.teams');
  await storeOf(home).roster.ensure();
  await storeOf(home, 'other').roster.ensure();
  assert.deepEqual(readStateRootRegistry(env).roots, [home]);
});
