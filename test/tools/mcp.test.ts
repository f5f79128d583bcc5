import { mcpFixture } from '../helpers/mcp-fixture.js';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launcherFor } from '../../src/sandbox/index.js';
import { McpHub, runTool, toolSpecs, type McpServerStatus } from '../../src/tools/index.js';
import { killProcessGroup } from '../../src/lib/index.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

// Real servers through the real SDK client, started in real bubblewrap as an agent's would be.
const FIXTURE = mcpFixture();
const fixture = (...args: string[]) => ({ command: process.execPath, args: [FIXTURE, ...args], env: { FIXTURE_VALUE: 'from-settings' } });

describe('MCP servers through the SDK client, in the sandbox', () => {
  const temp = tempHome('teams-mcp-');
  const cwd = join(temp.home, 'work');
  const hidden = join(temp.home, 'state');
  const groups = new Set<number>();
  const launch = launcherFor({ kind: 'bwrap', network: 'none', bwrap: 'bwrap' }, () => ({ writable: true, hidden: [hidden] }));
  const hooks = { onSpawn: (pgid: number) => groups.add(pgid), onExit: (pgid: number) => groups.delete(pgid) };
  let hub: McpHub;

  before(async () => {
    mkdirSync(cwd, { recursive: true });
    mkdirSync(hidden, { recursive: true });
    writeFileSync(join(hidden, 'settings.json'), '{}');
    hub = await McpHub.started({ fix: fixture(), broken: fixture('--fail'), missing: { command: 'no-such-mcp-server', args: [], env: {} } }, { launch, cwd, hooks, timeoutMs: 15_000 });
  });
  after(async () => {
    await hub.close();
    temp.cleanup();
  });

  const status = (name: string): McpServerStatus => {
    const found = hub.statuses().find((s) => s.server === name);
    assert.ok(found, `no status for ${name}`);
    return found;
  };

  test('lists the tools as mcp__<server>__<tool>, with the server\'s own input schema', () => {
    assert.equal(status('fix').state, 'ready', status('fix').error);
    const specs = toolSpecs(hub.tools());
    assert.deepEqual(specs.map((s) => s.name).sort(), ['mcp__fix__echo', 'mcp__fix__probe']);
    const echo = specs.find((s) => s.name === 'mcp__fix__echo');
    assert.equal(echo?.description, 'Echo the text back.');
    assert.deepEqual(echo?.input_schema.required, ['text']);
    assert.equal((echo?.input_schema.properties as Record<string, { type?: string }>).text?.type, 'string');
  });

  test('a call reaches the server and its answer comes back', async () => {
    const result = await runTool(hub.tools(), 'mcp__fix__echo', { text: 'hello' }, {});
    assert.deepEqual(result, { content: 'echo: hello' });
  });

  test('the server runs in the sandbox: read-only working directory, state hidden, its env passed', async () => {
    const result = await runTool(hub.tools(), 'mcp__fix__probe', { path: join(hidden, 'settings.json') }, {});
    assert.equal(result.content, 'wrote cwd: no (EROFS); sees path: no; FIXTURE_VALUE=from-settings');
    assert.equal(existsSync(join(cwd, 'mcp-probe.txt')), false);
  });

  test('a server that fails to start is reported with why, and the others go on', () => {
    const broken = status('broken');
    assert.equal(broken.state, 'failed');
    assert.match(broken.error ?? '', /exit code 3/);
    assert.match(broken.error ?? '', /fixture: told to fail/);
    const missing = status('missing');
    assert.equal(missing.state, 'failed');
    assert.match(missing.error ?? '', /not found|exit code 127/);
    assert.equal(status('fix').state, 'ready');
  });

  // Last: it kills the server the other tests use.
  test('a server killed with SIGKILL is reported, and its tools then say why they cannot run', async () => {
    const reported: McpServerStatus[] = [];
    hub.changes.subscribe((s) => reported.push(s));
    assert.ok(groups.size > 0, 'the server reported its process group');
    for (const pgid of groups) killProcessGroup(pgid);
    const stopped = await waitFor(() => reported.find((s) => s.server === 'fix'), 'the stop of fix reported');
    assert.equal(stopped.state, 'stopped');
    assert.match(stopped.error ?? '', /the server stopped/);
    const result = await runTool(hub.tools(), 'mcp__fix__echo', { text: 'again' }, {});
    assert.equal(result.isError, true);
    assert.match(result.content, /the MCP server 'fix' is not running \(the server stopped.*\); its tools cannot be used now/);
  });
});
