import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { resolveModelSettings } from '../../src/model/settings.js';
import { costOf } from '../../src/model/usage.js';
import { parseScript } from '../../src/offline/script.js';
import { startOfflineServer } from '../../src/offline/server.js';
import { parseAgent } from '../../src/offline/match.js';
import { systemText } from '../../src/offline/request.js';
import { LeadRuntime } from '../../src/lead/lead.js';
import { openFileStore } from '../../src/store/file/file-store.js';
import { memberCost, describeUsage } from '../../src/team/budget.js';
import { formatMembers } from '../../src/present/format.js';
import { teamPaths } from '../../src/team/paths.js';
import { killAll } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

after(killAll);

/**
 * A team run "online": the real SDK in every process, with a dummy key, against an offline
 * server this test started (ANTHROPIC_BASE_URL). The ids are then real ones, asked for and
 * priced, as they would be against Claude; the script answers whatever the model.
 */
const script = parseScript({
  version: 1,
  rules: [
    {
      when: { agent: 'lead', last: '^Start hal' },
      reply: { text: 'Starting hal.', tool_uses: [{ name: 'spawn_teammate', input: { name: 'hal', role: 'checker', prompt: 'Check the notes.', model: 'claude-haiku-4-5' } }] },
    },
    { when: { agent: 'hal' }, reply: { text: 'Checked the notes: all fine.' } },
    { when: { agent: 'lead' }, reply: { text: 'Noted.' } },
  ],
});

test('a teammate spawned with its own model asks for it, is listed with it, and is priced as it', async () => {
  const asked: { agent: string; model: string }[] = [];
  const server = await startOfflineServer({ script, onRequest: (body) => asked.push({ agent: parseAgent(systemText(body)).name, model: body.model }) });
  const { home, cleanup } = tempHome('teams-teammate-model-');
  const paths = teamPaths(home, 'default');
  const store = openFileStore(paths);
  await store.roster.ensure();
  mkdirSync(paths.workspace, { recursive: true });
  const settings = resolveModelSettings({ model: 'claude-sonnet-5-5' }, { ANTHROPIC_API_KEY: 'dummy', ANTHROPIC_BASE_URL: server.url });
  assert.equal(settings.offline, false);
  const runtime = await LeadRuntime.start({ store, paths, settings, cwd: paths.workspace, permissionMode: 'default', planReviewer: 'human', graceMs: 5000, sandbox: { kind: 'off' } });
  try {
    await assert.rejects(runtime.teammates.spawn({ name: 'bad', role: 'r', prompt: 'p', planMode: false, model: 'haiku please' }), /invalid model id 'haiku please'/);
    await runtime.submit({ op: 'prompt', text: 'Start hal to check the notes' });
    const hal = await waitFor(async () => {
      const member = (await store.roster.load())?.members.find((m) => m.name === 'hal');
      return member?.usage && member.status === 'idle' ? member : undefined;
    }, "hal's finished turn in the roster", 20_000);

    assert.equal(hal.model, 'claude-haiku-4-5');
    assert.deepEqual([...new Set(asked.filter((a) => a.agent === 'hal').map((a) => a.model))], ['claude-haiku-4-5'], 'hal asked for its own model');
    assert.deepEqual([...new Set(asked.filter((a) => a.agent === 'lead').map((a) => a.model))], ['claude-sonnet-5-5'], 'the lead kept its own');

    const usage = hal.usage;
    assert.ok(usage && usage.input_tokens + usage.cache_write_tokens > 0);
    const asHaiku = costOf('claude-haiku-4-5', usage) ?? Number.NaN;
    const asSonnet = costOf('claude-sonnet-5-5', usage) ?? Number.NaN;
    const cost = memberCost(hal) ?? Number.NaN;
    assert.ok(Math.abs(cost - asHaiku) < 1e-12, `priced as Haiku: ${cost} vs ${asHaiku}`);
    assert.ok(asSonnet > asHaiku * 1.5, `and not at the lead's price (${asSonnet})`);
    // `teams status` shows the model and that cost.
    const row = formatMembers([hal]).split('\n').find((line) => line.startsWith('hal')) ?? '';
    assert.match(row, /claude-haiku-4-5/);
    assert.ok(row.endsWith(describeUsage(hal)), row);
  } finally {
    await runtime.stop();
    await server.close();
    cleanup();
  }
});
