import { mcpFixture } from '../helpers/mcp-fixture.js';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killAll } from '../helpers/children.js';
import { runCli } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { TeamSession } from './session.js';

after(killAll);

const FIXTURE = mcpFixture();

/**
 * A teammate calls an MCP server's tools, end to end: the server comes from the project's
 * settings (read by the lead, handed to alice at spawn), runs in alice's sandbox, and its
 * tools go through the same permission flow as her commands: `mcp__fix__echo` is allowed by a
 * rule and runs unasked, `mcp__fix__probe` asks and the human approves it.
 */
describe('MCP servers, end to end', () => {
  test('a teammate calls an MCP tool in her sandbox: one allowed by a rule, one asked and approved', async (t) => {
    const prepared = TeamSession.prepare({
      extraRules: [
        { name: 'alice: an allowed MCP tool', when: { agent: 'teammate', after_tool: 'write_file' }, reply: { text: 'Asking the echo server.', tool_uses: [{ name: 'mcp__fix__echo', input: { text: 'from alice' } }] } },
        {
          name: 'alice: an MCP tool that asks',
          when: { agent: 'teammate', after_tool: 'mcp__fix__echo', last: '(?<echo>echo: [^\\n]*)' },
          reply: { text: 'Echo said: {{last.echo}}', tool_uses: [{ name: 'mcp__fix__probe', input: { path: '../../settings.json' } }] },
        },
        {
          name: 'alice: back to the demo',
          when: { agent: 'teammate', after_tool: 'mcp__fix__probe', last: '(?<probe>wrote cwd: [^\\n]*)' },
          reply: { text: 'Probe said: {{last.probe}}', tool_uses: [{ name: 'bash', input: { command: 'rm -rf build/cache' } }] },
        },
      ],
    });
    // What the probe looks for: the project's settings, which her sandbox must hide.
    const settings = join(prepared.home, 'settings.json');
    assert.equal(join(prepared.workdir, '../../settings.json'), settings, 'the path the probe is given');
    writeFileSync(settings, JSON.stringify({ mcpServers: { fix: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_VALUE: 'from-settings' } } } }));
    for (const rule of ['write_file(notes.md)', 'mcp__fix__echo', 'Bash(rm -rf build/cache)']) {
      const added = await runCli(prepared.home, ['allow', rule]);
      assert.equal(added.code, 0, added.stderr);
    }
    mkdirSync(join(prepared.workdir, 'build', 'cache'), { recursive: true });
    const session = await prepared.start();
    t.after(() => session.cleanup());
    assert.equal((await session.cli(['approve', (await session.pending('plan')).request_id])).code, 0);

    // The echo ran unasked (a rule allows it); the probe asks, named as the model calls it.
    const probe = await session.pending('permission');
    assert.match(probe.summary, /^mcp__fix__probe/);
    assert.equal((await session.cli(['approve', probe.request_id])).code, 0);
    assert.equal((await session.exited()).code, 0, session.lead.stderr());

    const logs = await session.cli(['logs', 'alice']);
    assert.equal(logs.code, 0, logs.stderr);
    assert.match(logs.stdout, /Echo said: echo: from alice/);
    // In her sandbox: the working directory read-only (an unasked command's), the settings hidden, the server's env as configured.
    assert.match(logs.stdout, /Probe said: wrote cwd: no \(EROFS\); sees path: no; FIXTURE_VALUE=from-settings/);
    assert.equal(existsSync(join(session.workdir, 'mcp-probe.txt')), false);
    const asked = (await session.requests()).filter((r) => r.kind === 'permission');
    assert.deepEqual(asked.map((r) => r.request_id), [probe.request_id], 'only the probe was asked about');
    await waitFor(() => !existsSync(join(session.workdir, 'build', 'cache')), 'the demo to go on after the MCP calls');
  });

  test('the lead: a server that fails to start is reported and the lead goes on; a deny rule refuses a call', async (t) => {
    const prepared = TeamSession.prepare({
      prompt: 'Ask the echo server yourself',
      extraRules: [
        { name: 'lead: a denied MCP tool', when: { agent: 'lead', turn: 1 }, reply: { text: 'Echoing.', tool_uses: [{ name: 'mcp__fix__echo', input: { text: 'from the lead' } }] } },
        { name: 'lead: done', when: { agent: 'lead', after_tool: 'mcp__fix__echo' }, reply: { text: 'Done with the echo.' } },
      ],
    });
    const fix = { command: process.execPath, args: [FIXTURE] };
    writeFileSync(join(prepared.home, 'settings.json'), JSON.stringify({ mcpServers: { fix, broken: { ...fix, args: [FIXTURE, '--fail'] } } }));
    const denied = await runCli(prepared.home, ['deny', 'mcp__fix']);
    assert.equal(denied.code, 0, denied.stderr);
    const session = await prepared.start();
    t.after(() => session.cleanup());
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    const problems = session.events().filter((e) => e.type === 'problem').map((e) => String(e.text));
    assert.ok(problems.some((text) => /^MCP server 'broken' failed: failed to start: .*told to fail.*; going on without its tools$/.test(text)), problems.join('\n'));
    assert.match(session.lead.stdout(), /mcp__fix__echo is denied by the rule mcp__fix/);
    assert.match(session.lead.stdout(), /Done with the echo\./);
    assert.deepEqual(await session.requests(), [], 'nothing was asked');
    const audited = (await session.audit()).filter((e) => e.event === 'problem');
    assert.ok(audited.some((e) => JSON.stringify(e).includes("MCP server 'broken' failed")), 'the failure is audited');
  });
});
