import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { teamAnchor } from '../../src/host/host-files.js';
import { trustToken } from '../../src/host/trust-token.js';
import { REPO_ROOT, killAll, spawnNode } from '../helpers/children.js';
import { startRedisServer } from '../helpers/redis-server.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { startOfflineLead } from '../helpers/lead.js';
import { percentile } from './stats.js';
import type { BenchSection, Figure } from './section.js';

const SPAWNS = 5;

/**
 * Spawn → ready for a teammate placed on a `teams host`: the lead and the host share only a
 * Redis server on loopback (each its own state home), so the figure is the order's trip
 * through Redis, the host's local start, and the signed reports back, beside a local spawn.
 */
async function hostSpawn(): Promise<Figure[]> {
  const server = await startRedisServer({ appendfsync: 'everysec' });
  const before = process.env.TEAMS_STORE;
  process.env.TEAMS_STORE = server.url;
  const hostHome = tempHome('teams-bench-host-');
  const lead = await startOfflineLead('teams-bench-lead-').finally(() => {
    if (before === undefined) delete process.env.TEAMS_STORE;
    else process.env.TEAMS_STORE = before;
  });
  try {
    const workdir = join(hostHome.home, 'work');
    mkdirSync(workdir);
    spawnNode(join(REPO_ROOT, 'bin', 'teams.js'), ['--home', hostHome.home, 'host', '--trust', trustToken(teamAnchor(lead.paths)), '--name', 'build', '--workdir', workdir], {
      env: { ...process.env, TEAMS_OFFLINE: '1', TEAMS_STORE: server.url },
    });
    const remote: number[] = [];
    const local: number[] = [];
    for (let i = 0; i < SPAWNS; i++) {
      const spec = { role: 'tester', prompt: 'wait', planMode: false };
      let started = performance.now();
      // The first waits for the host to register and be admitted; it is not counted.
      if (i === 0) {
        await waitFor(() => lead.runtime.teammates.spawn({ ...spec, name: 'warmup', host: 'build' }).catch((error: unknown) => {
          if (/no host 'build' is attached/.test(String(error))) return undefined;
          throw error;
        }), 'the host to be attached', 30_000);
        started = performance.now();
      }
      await lead.runtime.teammates.spawn({ ...spec, name: `remote${i}`, host: 'build' });
      remote.push(performance.now() - started);
      started = performance.now();
      await lead.runtime.teammates.spawn({ ...spec, name: `local${i}` });
      local.push(performance.now() - started);
    }
    const p50 = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);
    return [
      { label: `teammate spawn → ready on a host via Redis (p50 of ${SPAWNS})`, value: `${p50(remote).toFixed(0)} ms  (local, same run: ${p50(local).toFixed(0)} ms)` },
      { label: 'teammate spawn → ready on a host (max)', value: `${Math.max(...remote).toFixed(0)} ms` },
    ];
  } finally {
    await lead.runtime.stop('bench finished');
    await lead.store.close();
    await killAll();
    await server.close();
    lead.cleanup();
    hostHome.cleanup();
  }
}

export const hostSpawnSections: BenchSection[] = [{ name: 'Redis: teammate spawn on a host', run: hostSpawn }];
