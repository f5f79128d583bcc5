import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { TeamSession } from './session.js';

after(killAll);

/**
 * The store's descriptor reaches a teammate by environment (it may hold a password) and no
 * further: not into a command it runs, even when the project's settings name the variable.
 */
test("a teammate's command never sees TEAMS_STORE, even when the project's sandbox settings name it", async (t) => {
  const prepared = TeamSession.prepare({
    env: { TEAMS_STORE: 'file:' },
    extraRules: [
      { name: 'alice: prints her environment', times: 1, when: { agent: 'teammate', after_tool: 'write_file' }, reply: { text: 'Looking around.', tool_uses: [{ name: 'bash', input: { command: 'env; echo env-done' } }] } },
    ],
  });
  writeFileSync(join(prepared.home, 'settings.json'), JSON.stringify({ sandbox: { env: ['TEAMS_STORE', 'KEPT_FOR_THE_TEST'] } }));
  const session = await prepared.start();
  t.after(() => session.cleanup());
  assert.equal((await session.cli(['approve', (await session.pending('plan')).request_id])).code, 0);
  // The demo's write asks first; the command after it does not (a plain `env` is no risk).
  assert.equal((await session.cli(['approve', (await session.pending('permission')).request_id])).code, 0);
  const result = await waitFor(async () => {
    const { lines } = await session.store.agentLogs.read('alice');
    return lines.find((line) => line.type === 'tool_result' && line.name === 'bash');
  }, "alice's env", 60_000).catch(async (error: unknown) => {
    const { lines } = await session.store.agentLogs.read('alice');
    throw new Error(`${String(error)}; alice's log: ${JSON.stringify(lines.slice(-5))}; requests: ${JSON.stringify(await session.requests())}; lead: ${session.lead.stderr().slice(-800)}`);
  });
  assert.ok(result.type === 'tool_result');
  assert.match(result.content, /env-done/);
  assert.match(result.content, /^PATH=/m, 'the command did print its environment');
  assert.doesNotMatch(result.content, /TEAMS_STORE/);
});
