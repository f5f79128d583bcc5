import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventStream, Refused } from '../../src/lib/index.js';
import { Spawners } from '../../src/process/spawners.js';
import { Supervisor } from '../../src/process/supervisor.js';
import { KeyRing } from '../../src/protocol/signing.js';
import { teamPaths } from '../../src/team/paths.js';
import { existsSync } from 'node:fs';
import { tempHome } from '../helpers/temp.js';
import type { ChildCompaction, ChildExit, Spawner, StartedProcess, TeammateSpec } from '../../src/process/spawner.js';

/**
 * A spawner in memory: it "runs" a teammate from spawn until `end`, and records what it was
 * asked. A test double of the seam: these tests are about routing, not processes (those are the
 * supervisor's, test/lead and test/e2e).
 */
class FakeSpawner implements Spawner {
  readonly exits = new EventStream<ChildExit>();
  readonly compactions = new EventStream<ChildCompaction>();
  readonly spawned: TeammateSpec[] = [];
  readonly asked: string[] = [];
  private readonly pids = new Map<string, number>();

  constructor(private readonly firstPid: number) {}

  spawn(spec: TeammateSpec, started?: (process: StartedProcess) => void): Promise<{ pid: number }> {
    const pid = this.firstPid + this.spawned.length;
    this.spawned.push(spec);
    this.pids.set(spec.name, pid);
    started?.({ pid, pid_start: 'tick' });
    return Promise.resolve({ pid });
  }

  /** The teammate's process ends. */
  end(name: string, code: number | null = 0): void {
    const pid = this.pids.get(name);
    if (pid === undefined) throw new Error(`${name} is not running in this fake`);
    this.pids.delete(name);
    this.exits.emit({ name, pid, code, signal: null, expected: false });
  }

  placementProblem(): string | undefined {
    return undefined;
  }

  compact(name: string): void {
    this.asked.push(`compact ${name}`);
  }

  isRunning(name: string): boolean {
    return this.pids.has(name);
  }

  running(): string[] {
    return [...this.pids.keys()];
  }

  expectExit(name: string, graceMs?: number): void {
    this.asked.push(`expectExit ${name} ${graceMs ?? 'default'}`);
  }

  waitForExit(names: readonly string[], timeoutMs: number): Promise<string[]> {
    this.asked.push(`waitForExit ${names.join(',')} ${timeoutMs}`);
    return Promise.resolve(names.filter((name) => this.pids.has(name)));
  }

  killAll(): Promise<void> {
    this.asked.push('killAll');
    for (const name of this.running()) this.end(name, null);
    return Promise.resolve();
  }
}

function spec(name: string, host?: string): TeammateSpec {
  return {
    name,
    planMode: false,
    permissionMode: 'default',
    sandbox: { kind: 'off' },
    rules: { allow: [], deny: [], ask: [], network: [] },
    model: 'offline',
    journal: { session: 'session-0123456789', resume: false },
    ...(host === undefined ? {} : { host }),
  };
}

function setUp(): { local: FakeSpawner; build: FakeSpawner; spawners: Spawners } {
  const local = new FakeSpawner(100);
  const build = new FakeSpawner(900);
  const spawners = new Spawners(local);
  spawners.attach('build', build);
  return { local, build, spawners };
}

describe('Spawners: one spawner over the local one and one per host', () => {
  test("a spawn goes where the spec's host says: none is here, a name is that host's", async () => {
    const { local, build, spawners } = setUp();
    const heard: StartedProcess[] = [];
    assert.deepEqual(await spawners.spawn(spec('alice'), (p) => heard.push(p)), { pid: 100 });
    assert.deepEqual(await spawners.spawn(spec('bob', 'build')), { pid: 900 });
    assert.deepEqual(local.spawned.map((s) => s.name), ['alice']);
    assert.deepEqual(build.spawned.map((s) => s.name), ['bob']);
    assert.deepEqual(heard, [{ pid: 100, pid_start: 'tick' }], "the spawner's started callback reaches the caller");
    assert.deepEqual(spawners.running().sort(), ['alice', 'bob']);
    assert.ok(spawners.isRunning('alice') && spawners.isRunning('bob') && !spawners.isRunning('carol'));
  });

  test('a spawn on a host not attached is refused, naming the hosts there are', async () => {
    const { local, build, spawners } = setUp();
    await assert.rejects(spawners.spawn(spec('alice', 'gpu')), (error: unknown) => error instanceof Refused && /^cannot start alice: no host 'gpu' is attached \(attached: build\)$/.test(error.message));
    assert.equal(local.spawned.length + build.spawned.length, 0, 'nothing started anywhere');
    assert.equal(spawners.placementProblem('gpu'), "no host 'gpu' is attached (attached: build)", 'asked before anything is written');
    assert.equal(spawners.placementProblem('build'), undefined);
    assert.equal(spawners.placementProblem(undefined), undefined);
  });

  test('a name runs in one place: a spawn of a running name is refused, whichever host it runs on', async () => {
    const { local, build, spawners } = setUp();
    await spawners.spawn(spec('bob', 'build'));
    await assert.rejects(spawners.spawn(spec('bob')), /bob is already running on host 'build'/);
    await spawners.spawn(spec('alice'));
    await assert.rejects(spawners.spawn(spec('alice', 'build')), (error: unknown) => error instanceof Refused && error.message === 'alice is already running');
    assert.deepEqual([local.spawned.length, build.spawned.length], [1, 1]);
  });

  test('exits and compactions of every spawner are heard as one stream, and a detached host is heard no more', async () => {
    const local = new FakeSpawner(100);
    const build = new FakeSpawner(900);
    const spawners = new Spawners(local);
    const detach = spawners.attach('build', build);
    const exits: string[] = [];
    const compactions: string[] = [];
    spawners.exits.subscribe((exit) => exits.push(`${exit.name}:${exit.pid}:${exit.code}`));
    spawners.compactions.subscribe((c) => compactions.push(c.name));
    await spawners.spawn(spec('alice'));
    await spawners.spawn(spec('bob', 'build'));
    build.compactions.emit({ name: 'bob', before: 10, after: 2, reason: 'manual' });
    local.end('alice', 1);
    build.end('bob');
    assert.deepEqual(exits, ['alice:100:1', 'bob:900:0']);
    assert.deepEqual(compactions, ['bob']);
    detach();
    assert.deepEqual(spawners.hosts(), []);
    await assert.rejects(spawners.spawn(spec('bob', 'build')), /no host 'build' is attached \(none is\)/);
    build.exits.emit({ name: 'ghost', pid: 1, code: 0, signal: null, expected: true });
    assert.deepEqual(exits, ['alice:100:1', 'bob:900:0'], 'a detached host is not heard');
  });

  test('compact and expectExit go to the spawner running the name; compact of a name running nowhere is refused', async () => {
    const { local, build, spawners } = setUp();
    await spawners.spawn(spec('alice'));
    await spawners.spawn(spec('bob', 'build'));
    spawners.compact('bob');
    spawners.expectExit('alice', 250);
    spawners.expectExit('carol');
    assert.deepEqual(local.asked, ['expectExit alice 250']);
    assert.deepEqual(build.asked, ['compact bob']);
    assert.throws(() => spawners.compact('carol'), (error: unknown) => error instanceof Refused && error.message === 'carol is not running');
  });

  test('waitForExit asks each spawner about its own teammates only; killAll reaches every spawner', async () => {
    const { local, build, spawners } = setUp();
    await spawners.spawn(spec('alice'));
    await spawners.spawn(spec('bob', 'build'));
    assert.deepEqual((await spawners.waitForExit(['alice', 'bob', 'carol'], 50)).sort(), ['alice', 'bob']);
    assert.deepEqual(local.asked, ['waitForExit alice 50']);
    assert.deepEqual(build.asked, ['waitForExit bob 50']);
    await spawners.killAll();
    assert.deepEqual(spawners.running(), []);
    assert.ok(local.asked.includes('killAll') && build.asked.includes('killAll'));
  });

  test('a host is attached once at a time; an old detach does not remove a later attachment', () => {
    const { spawners } = setUp();
    assert.throws(() => spawners.attach('build', new FakeSpawner(1)), /host 'build' is already attached/);
    const detachGpu = spawners.attach('gpu', new FakeSpawner(1));
    detachGpu();
    spawners.attach('gpu', new FakeSpawner(2));
    detachGpu();
    assert.deepEqual(spawners.hosts().sort(), ['build', 'gpu']);
  });
});

describe("the supervisor is this machine's spawner only", () => {
  test('a spec placed on a host is refused before anything is started or written', async () => {
    const { home, cleanup } = tempHome('teams-supervisor-');
    try {
      const paths = teamPaths(home, 'default');
      const supervisor = new Supervisor(paths, { env: {}, cwd: home, graceMs: 1_000, keys: new KeyRing(), leadKey: 'key' });
      assert.equal(supervisor.placementProblem(undefined), undefined);
      assert.equal(supervisor.placementProblem('build'), "this machine's supervisor starts no teammate on host 'build'");
      let started = false;
      await assert.rejects(supervisor.spawn(spec('alice', 'build'), () => (started = true)), (error: unknown) => error instanceof Refused && error.message === "cannot start alice: this machine's supervisor starts no teammate on host 'build'");
      assert.equal(started, false);
      assert.deepEqual(supervisor.running(), []);
      assert.equal(existsSync(paths.root), false, 'not even its log directory');
    } finally {
      cleanup();
    }
  });
});
