import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { teamAnchor } from '../../src/host/host-files.js';
import { trustToken } from '../../src/host/trust-token.js';
import { REPO_ROOT, isAlive, killAll, spawnNode } from '../helpers/children.js';
import { startOfflineLead } from '../helpers/lead.js';
import { waitFor } from '../helpers/wait.js';

after(killAll);

test('a teammate placed on a `teams host` process works with the lead through the store; the host SIGKILLed, it is marked crashed within 3 s and nothing is left running', async () => {
  const { runtime, store, paths, cleanup } = await startOfflineLead('teams-e2e-host-');
  try {
    // The host: its own working directory; the file store is where the lead keeps it (the same --home).
    const workdir = join(paths.home, 'host-work');
    mkdirSync(workdir);
    const host = spawnNode(join(REPO_ROOT, 'bin', 'teams.js'), ['--home', paths.home, 'host', '--trust', trustToken(teamAnchor(paths)), '--name', 'build', '--workdir', workdir], {
      env: { ...process.env, TEAMS_OFFLINE: '1' },
    });
    // In plan mode, alice's first word to the lead is her plan: a signed message the lead
    // believes only by the key her host relayed. Refused (nothing written) until the host is attached.
    const spawn = () => runtime.teammates.spawn({ name: 'alice', role: 'coder', prompt: 'Write a short note about our build cache', planMode: true, host: 'build' });
    const { pid } = await waitFor(() => spawn().catch((error: unknown) => {
      if (/no host 'build' is attached/.test(String(error))) return undefined;
      throw error;
    }), 'the host to be attached and alice started there', 30_000);
    const plan = await waitFor(async () => (await runtime.decisions.pendingForHuman()).find((r) => r.kind === 'plan' && r.from === 'alice'), "alice's plan from the host", 30_000);
    assert.equal(plan.to, 'lead');
    const alice = (await store.roster.load())?.members.find((m) => m.name === 'alice');
    assert.equal(alice?.host, 'build');
    assert.equal(alice?.pid, pid);
    // Her output came through the host's pipe into the store's agent log, line by line.
    await waitFor(async () => (await store.agentLogs.read('alice')).lines.length > 0, "alice's log lines in the store", 10_000);

    host.process.kill('SIGKILL');
    await waitFor(async () => (await store.roster.load())?.members.find((m) => m.name === 'alice')?.status === 'crashed', 'alice to be marked crashed', 3_000);
    assert.equal((await store.requests.get(plan.request_id))?.state, 'cancelled', 'her pending plan cancelled, as for a local crash');
    await waitFor(() => !isAlive(pid), 'alice to end with her host', 10_000);
  } finally {
    await runtime.stop();
    await store.close();
    cleanup();
  }
});
