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

  test("the lead: a server from the project's .mcp.json, with ${VAR} in its args and env, is started in its sandbox and its tool called", async (t) => {
    const prepared = TeamSession.prepare({
      prompt: 'Ask the probe server yourself',
      env: { MCP_TEST_FIXTURE: FIXTURE },
      extraRules: [
        { name: 'lead: an MCP tool of .mcp.json', when: { agent: 'lead', turn: 1 }, reply: { text: 'Probing.', tool_uses: [{ name: 'mcp__fix__probe', input: {} }] } },
        { name: 'lead: done', when: { agent: 'lead', after_tool: 'mcp__fix__probe', last: '(?<probe>wrote cwd: [^\\n]*)' }, reply: { text: 'Probe said: {{last.probe}}' } },
      ],
    });
    // Unexpanded, node would be started on a file named "${MCP_TEST_FIXTURE}", and the server fail.
    const server = { command: process.execPath, args: ['${MCP_TEST_FIXTURE}'], env: { FIXTURE_VALUE: '${MCP_TEST_VALUE:-from-mcp-json}' } };
    writeFileSync(join(prepared.workdir, '.mcp.json'), JSON.stringify({ mcpServers: { fix: server } }));
    // As the human would, once they have read it; without it the server is not started (test/lead/mcp-settings.test.ts).
    assert.equal((await runCli(prepared.home, ['mcp', 'trust'], {}, prepared.workdir)).code, 0);
    const allowed = await runCli(prepared.home, ['allow', 'mcp__fix']);
    assert.equal(allowed.code, 0, allowed.stderr);
    const session = await prepared.start();
    t.after(() => session.cleanup());
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    const problems = session.events().filter((e) => e.type === 'problem').map((e) => String(e.text));
    assert.deepEqual(problems.filter((text) => text.includes('MCP')), [], 'no server failed');
    // In the lead's sandbox: its working directory read-only, the default of ${MCP_TEST_VALUE:-…} in its env.
    assert.match(session.lead.stdout(), /Probe said: wrote cwd: no \(EROFS\); sees path: n\/a; FIXTURE_VALUE=from-mcp-json/);
  });

  test('a .mcp.json rewritten after the lead started, as a teammate could, changes no server of the session', async (t) => {
    const prepared = TeamSession.prepare({
      prompt: 'Probe, then start bob',
      env: { MCP_TEST_FIXTURE: FIXTURE },
      extraRules: [
        { name: 'lead: an MCP tool that asks', when: { agent: 'lead', turn: 1 }, reply: { text: 'Probing.', tool_uses: [{ name: 'mcp__fix__probe', input: {} }] } },
        { name: 'lead: start bob', when: { agent: 'lead', after_tool: 'mcp__fix__probe' }, reply: { tool_uses: [{ name: 'spawn_teammate', input: { name: 'bob', role: 'checker', prompt: 'Use the MCP tools.' } }] } },
        { name: 'lead: bob started', when: { agent: 'lead', after_tool: 'spawn_teammate' }, reply: { text: 'Bob is on it.' } },
        // The script calls only tools the agent is offered: this one runs only if bob was handed the planted server.
        { name: 'bob: a planted server', when: { agent: 'bob', turn: 1 }, reply: { tool_uses: [{ name: 'mcp__planted__echo', input: { text: 'planted' } }] } },
        { name: 'bob: the planted server answered', when: { agent: 'bob', after_tool: 'mcp__planted__echo' }, reply: { text: 'Bob had the planted server.' } },
        { name: 'bob: an MCP tool', when: { agent: 'bob', turn: 1 }, reply: { tool_uses: [{ name: 'mcp__fix__echo', input: { text: 'from bob' } }] } },
        { name: 'bob: report', when: { agent: 'bob', after_tool: 'mcp__fix__echo', last: '(?<echo>[^\\n]*from bob[^\\n]*)' }, reply: { text: 'Bob saw: {{last.echo}}' } },
      ],
    });
    const mcpJson = join(prepared.workdir, '.mcp.json');
    writeFileSync(mcpJson, JSON.stringify({ mcpServers: { fix: { command: process.execPath, args: ['${MCP_TEST_FIXTURE}'] } } }));
    assert.equal((await runCli(prepared.home, ['mcp', 'trust'], {}, prepared.workdir)).code, 0);
    for (const rule of ['mcp__fix__echo', 'mcp__planted']) assert.equal((await runCli(prepared.home, ['allow', rule])).code, 0);
    const session = await prepared.start();
    t.after(() => session.cleanup());
    // The lead has started (and read .mcp.json) and waits on the human: now the file is rewritten,
    // as a teammate's command could: its server made one that fails, and a server planted.
    const probe = await session.pending('permission');
    assert.match(probe.summary, /^mcp__fix__probe/);
    const fix = { command: process.execPath, args: ['${MCP_TEST_FIXTURE}', '--fail'] };
    writeFileSync(mcpJson, JSON.stringify({ mcpServers: { fix, planted: { command: process.execPath, args: ['${MCP_TEST_FIXTURE}'] } } }));
    assert.equal((await session.cli(['approve', probe.request_id])).code, 0);

    // bob, spawned after the rewrite, has the servers the lead read at its start: fix as it was
    // (the rewritten one would fail), and no planted one among his tools.
    const logs = await waitFor(async () => {
      const read = (await session.cli(['logs', 'bob'])).stdout;
      return /Bob saw:|Bob had the planted server/.test(read) && read;
    }, "bob's MCP call", 60_000);
    assert.match(logs, /Bob saw: echo: from bob/);
    assert.doesNotMatch(logs, /planted server/);
    const problems = session.events().filter((e) => e.type === 'problem').map((e) => String(e.text));
    assert.deepEqual(problems.filter((text) => text.includes('MCP')), [], 'no server failed');
  });
});
