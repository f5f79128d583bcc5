import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { teamAnchor } from '../../src/host/host-files.js';
import { trustToken } from '../../src/host/trust-token.js';
import type { LeadRuntime } from '../../src/lead/lead.js';
import type { RequestRecord } from '../../src/protocol/request-records.js';
import { REPO_ROOT, isAlive, killAll, spawnTracked, type Child } from '../helpers/children.js';
import { startOfflineLead } from '../helpers/lead.js';
import { startRedisServer } from '../helpers/redis-server.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

after(killAll);

/** A `teams host` with its own state home and working directory, sharing only the Redis URL (by environment). */
function startHost(name: string, url: string, token: string): { child: Child; home: string; cleanup: () => void } {
  const { home, cleanup } = tempHome(`teams-host-${name}-`);
  const workdir = join(home, 'work');
  mkdirSync(workdir);
  // Each host in a PID namespace of its own: a pid check that leaked across machines would find nothing.
  const child = spawnTracked('/usr/bin/bwrap', ['--unshare-pid', '--die-with-parent', '--dev-bind', '/', '/', '--proc', '/proc', process.execPath, join(REPO_ROOT, 'bin', 'teams.js'), '--home', home, 'host', '--trust', token, '--name', name, '--workdir', workdir], {
    env: { ...process.env, TEAMS_OFFLINE: '1', TEAMS_STORE: url },
  });
  return { child, home, cleanup };
}

/** Processes whose working directory is under one of `dirs` (read from /proc; a process gone meanwhile is skipped). */
function processesUnder(dirs: readonly string[]): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).filter((pid) => {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      return dirs.some((dir) => cwd === dir || cwd.startsWith(`${dir}/`));
    } catch {
      return false;
    }
  }).map(Number);
}

async function pendingFrom(runtime: LeadRuntime, kind: RequestRecord['kind'], from: string): Promise<RequestRecord> {
  return waitFor(async () => (await runtime.decisions.pendingForHuman()).find((r) => r.kind === kind && r.from === from), `${from}'s ${kind} request`, 30_000);
}

test('a lead and two hosts sharing only Redis: a teammate on each has its plan and a permission approved; a host SIGKILLed has its teammate crashed within 3 s; nothing is left running', async (t) => {
  const server = await startRedisServer();
  const before = process.env.TEAMS_STORE;
  process.env.TEAMS_STORE = server.url;
  const lead = await startOfflineLead('teams-three-hosts-lead-').finally(() => {
    if (before === undefined) delete process.env.TEAMS_STORE;
    else process.env.TEAMS_STORE = before;
  });
  const token = trustToken(teamAnchor(lead.paths));
  const hosts = [startHost('build', server.url, token), startHost('gpu', server.url, token)];
  try {
    const placed = [{ name: 'alice', host: 'build' }, { name: 'bob', host: 'gpu' }];
    for (const { name, host } of placed) {
      await waitFor(() => lead.runtime.teammates.spawn({ name, role: 'coder', prompt: 'Write a short note about our build cache', planMode: true, host }).catch((error: unknown) => {
        if (new RegExp(`no host '${host}' is attached`).test(String(error))) return undefined;
        throw error;
      }), `${host} to be attached and ${name} started there`, 30_000);
    }
    for (const { name, host } of placed) {
      const member = (await lead.store.roster.load())?.members.find((m) => m.name === name);
      assert.equal(member?.host, host, `${name} is recorded on ${host}`);
      // The human decides from the lead's machine, whichever machine the teammate is on.
      for (const kind of ['plan', 'permission'] as const) {
        const request = await pendingFrom(lead.runtime, kind, name);
        const reply = await lead.runtime.submit({ op: 'decide', request_id: request.request_id, approve: true });
        assert.equal(reply.op, 'decide', `${name}'s ${kind}: ${reply.message}`);
      }
    }

    // The build host dies without a word: alice, on it, is crashed within 3 s, as a local crash would be.
    const exits: string[] = [];
    lead.runtime.events.subscribe((event) => {
      if (event.type === 'teammate_exit') exits.push(`${event.name} ${event.crashed ? 'crashed' : 'exited'}: ${event.why}`);
    });
    const killedAt = performance.now();
    hosts[0]?.child.process.kill('SIGKILL');
    await waitFor(async () => (await lead.store.roster.load())?.members.find((m) => m.name === 'alice')?.status === 'crashed', 'alice to be marked crashed', 3_000);
    t.diagnostic(`host SIGKILLed → its teammate crashed: ${Math.round(performance.now() - killedAt)} ms`);
    assert.notEqual((await lead.store.roster.load())?.members.find((m) => m.name === 'bob')?.status, 'crashed', 'bob, on the other host, goes on');
    // The human is told why in words: not an exit code that was never read.
    await waitFor(() => exits.length > 0 || undefined, "alice's exit to be told");
    assert.match(exits[0] ?? '', /^alice crashed: its host 'build' stopped beating: no signed beat for \d+\.\d s$/);
    await lead.runtime.stop();
    // No process left on any machine. A host's pids are its own namespace's (what the roster holds
    // for alice and bob means nothing here, and nothing here signals it); when a host's namespace
    // ends, so does every process in it, so the hosts gone and no process working in a host's
    // directories is the proof.
    hosts[1]?.child.process.kill('SIGTERM');
    for (const host of hosts) await waitFor(() => !isAlive(host.child.pid), `host pid ${host.child.pid} to be gone`, 15_000);
    await waitFor(() => processesUnder(hosts.map((h) => h.home)).length === 0, 'no process working in a host\'s directories', 10_000);
  } finally {
    await lead.runtime.stop();
    await lead.store.close();
    for (const host of hosts) host.cleanup();
    await server.close();
    lead.cleanup();
  }
});
