import { after, test } from 'node:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { filesOf } from '../helpers/store.js';
import type { LeadEvent } from '../../src/lead/events.js';
import { killAll } from '../helpers/children.js';
import { startOfflineLead } from '../helpers/lead.js';
import { waitFor } from '../helpers/wait.js';

after(killAll);

test('a torn or foreign config.json seen by the lead\'s watcher is a problem shown, not a crash', async () => {
  const { runtime, paths, cleanup } = await startOfflineLead('teams-lead-config-');
  const events: LeadEvent[] = [];
  runtime.events.subscribe((event) => events.push(event));
  try {
    const { config } = filesOf(paths);
    const good = readFileSync(config, 'utf8');
    writeFileSync(config, good.slice(0, 20));
    await waitFor(() => events.find((e) => e.type === 'problem' && /config\.json is not valid JSON/.test(e.text)), 'the torn config reported');
    writeFileSync(config, good);
    await waitFor(() => events.find((e) => e.type === 'team'), 'the roster read again once the file is whole');
  } finally {
    await runtime.stop();
    cleanup();
  }
});
