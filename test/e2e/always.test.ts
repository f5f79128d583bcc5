import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { TeamSession } from './session.js';

after(killAll);

/** Risky (a recursive delete) and leaves a trace of every run, so a run nobody asked about shows. */
const COMMAND = 'rm -rf build/cache && echo ran >> runs.log';

function runs(session: TeamSession): number {
  const log = join(session.workdir, 'runs.log');
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0;
}

/** Both runs happened, or a second question was asked (which nobody here would answer). */
async function repeated(session: TeamSession): Promise<void> {
  await waitFor(async () => runs(session) === 2 || (await permissionsAsked(session)) > 1, 'the second run, or a second question', 20_000);
  assert.equal(await permissionsAsked(session), 1, 'the repeat asked nothing');
  assert.equal(runs(session), 2, 'both runs happened');
}

async function permissionsAsked(session: TeamSession): Promise<number> {
  return (await session.requests()).filter((r) => r.kind === 'permission' && r.summary.startsWith('bash')).length;
}

describe('"teams approve --always": the identical call is not asked about again', () => {
  test('a teammate keeps the approval and runs the repeat without asking the lead', async (t) => {
    const session = await TeamSession.start({
      extraRules: [
        { name: 'alice: the risky command', when: { agent: 'teammate', after_tool: 'write_file' }, reply: { text: 'Clearing.', tool_uses: [{ name: 'bash', input: { command: COMMAND } }] } },
        { name: 'alice: the same again', times: 1, when: { agent: 'teammate', after_tool: 'bash' }, reply: { text: 'Once more.', tool_uses: [{ name: 'bash', input: { command: COMMAND } }] } },
      ],
    });
    t.after(() => session.cleanup());
    assert.equal((await session.cli(['approve', (await session.pending('plan')).request_id])).code, 0);
    const write = await session.pending('permission');
    assert.equal((await session.cli(['approve', write.request_id])).code, 0);
    const bash = await session.pending('permission', [write.request_id]);
    assert.match(bash.summary, /rm -rf build\/cache/);
    const always = await session.cli(['approve', bash.request_id, '--always']);
    assert.equal(always.code, 0, always.stderr);
    await repeated(session);
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    const granted = (await session.audit()).find((e) => e.event === 'message' && e.request_id === bash.request_id && e.type === 'permission_response');
    assert.match(granted?.event === 'message' ? granted.summary : '', /granted permission always/, 'the signed response carried "always"');
  });

  test('the lead keeps its own approval for its own repeat', async (t) => {
    const session = await TeamSession.start({
      prompt: 'Clear the cache twice yourself',
      extraRules: [
        { name: 'lead: the risky command', when: { agent: 'lead', turn: 1 }, reply: { text: 'Clearing.', tool_uses: [{ name: 'bash', input: { command: COMMAND } }] } },
        { name: 'lead: the same again', times: 1, when: { agent: 'lead', after_tool: 'bash' }, reply: { text: 'Once more.', tool_uses: [{ name: 'bash', input: { command: COMMAND } }] } },
        { name: 'lead: done', when: { agent: 'lead', after_tool: 'bash' }, reply: { text: 'Cleared twice.' } },
      ],
    });
    t.after(() => session.cleanup());
    const request = await session.pending('permission');
    const always = await session.cli(['approve', request.request_id, '--always']);
    assert.equal(always.code, 0, always.stderr);
    await repeated(session);
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    assert.match(session.lead.stdout(), /Cleared twice\./);
  });
});
