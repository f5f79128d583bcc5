import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { killAll } from '../helpers/children.js';
import { runCli } from '../helpers/cli.js';
import { TeamSession } from './session.js';

after(killAll);

/**
 * In default mode only a risky command asks (a plain `echo` never does), so the rule here is
 * for a recursive delete: `rm -rf build*` runs unasked, `rm -rf dist` still asks, and a
 * compound whose first part matches and whose second does not still asks.
 */
describe('project rules from `teams allow`, end to end', () => {
  test("a teammate runs what an allow rule covers without asking; anything else it asks about", async (t) => {
    const prepared = TeamSession.prepare({
      extraRules: [
        { name: 'alice: covered by the rule', when: { agent: 'teammate', after_tool: 'write_file' }, reply: { text: 'Clearing.', tool_uses: [{ name: 'bash', input: { command: 'rm -rf build/cache' } }] } },
        { name: 'alice: not covered', times: 1, when: { agent: 'teammate', after_tool: 'bash' }, reply: { text: 'And dist.', tool_uses: [{ name: 'bash', input: { command: 'rm -rf dist' } }] } },
        { name: 'alice: covered only in part', times: 1, when: { agent: 'teammate', after_tool: 'bash' }, reply: { text: 'Both.', tool_uses: [{ name: 'bash', input: { command: 'rm -rf build/old && rm -rf dist' } }] } },
      ],
    });
    for (const dir of ['build/cache', 'build/old', 'dist']) mkdirSync(join(prepared.workdir, dir), { recursive: true });
    for (const rule of ['bash(rm -rf build*)', 'write_file(notes.md)']) {
      const added = await runCli(prepared.home, ['allow', rule]);
      assert.equal(added.code, 0, added.stderr);
    }
    const session = await prepared.start();
    t.after(() => session.cleanup());
    assert.equal((await session.cli(['approve', (await session.pending('plan')).request_id])).code, 0);

    // The write and `rm -rf build/cache` asked nothing: the first question is about dist.
    const dist = await session.pending('permission');
    assert.match(dist.summary, /^bash.*rm -rf dist/);
    assert.equal(existsSync(join(session.workdir, 'notes.md')), true, 'the write a rule allows ran');
    assert.equal(existsSync(join(session.workdir, 'build', 'cache')), false, 'the command a rule allows ran');
    assert.equal((await session.cli(['approve', dist.request_id])).code, 0);

    const compound = await session.pending('permission', [dist.request_id]);
    assert.match(compound.summary, /rm -rf build\/old && rm -rf dist/);
    assert.equal((await session.cli(['reject', compound.request_id, '--reason', 'not dist again'])).code, 0);

    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    const asked = (await session.requests()).filter((r) => r.kind === 'permission');
    assert.deepEqual(asked.map((r) => r.request_id).sort(), [dist.request_id, compound.request_id].sort(), 'nothing else was asked');
    assert.equal(existsSync(join(session.workdir, 'dist')), false, 'the approved command ran');
    assert.equal(existsSync(join(session.workdir, 'build', 'old')), true, 'the rejected compound never ran');
  });

  test('the lead decides its own calls with the rules: allowed ones run unasked, denied ones are refused', async (t) => {
    const prepared = TeamSession.prepare({
      prompt: 'Clear the build cache yourself',
      extraRules: [
        { name: 'lead: covered by the rule', when: { agent: 'lead', turn: 1 }, reply: { text: 'Clearing.', tool_uses: [{ name: 'bash', input: { command: 'rm -rf build/cache' } }] } },
        { name: 'lead: a denied command', times: 1, when: { agent: 'lead', after_tool: 'bash' }, reply: { text: 'Now dist.', tool_uses: [{ name: 'bash', input: { command: 'rm -rf dist' } }] } },
        { name: 'lead: done', when: { agent: 'lead', after_tool: 'bash' }, reply: { text: 'Done with the cache.' } },
      ],
    });
    for (const dir of ['build/cache', 'dist']) mkdirSync(join(prepared.workdir, dir), { recursive: true });
    for (const [kind, rule] of [['allow', 'bash(rm -rf build*)'], ['deny', 'bash(rm -rf dist*)']] as const) {
      const added = await runCli(prepared.home, [kind, rule]);
      assert.equal(added.code, 0, added.stderr);
    }
    const session = await prepared.start();
    t.after(() => session.cleanup());
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    assert.match(session.lead.stdout(), /bash is denied by the rule bash\(rm -rf dist\*\)/);
    assert.match(session.lead.stdout(), /Done with the cache\./);
    assert.deepEqual(await session.requests(), [], 'nothing was asked');
    assert.equal(existsSync(join(prepared.workdir, 'build', 'cache')), false, 'the allowed command ran');
    assert.equal(existsSync(join(prepared.workdir, 'dist')), true, 'the denied command never ran');
  });
});
