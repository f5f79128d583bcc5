import { mcpFixture } from '../helpers/mcp-fixture.js';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempHome } from '../helpers/temp.js';
import { killAll } from '../helpers/children.js';

after(killAll);

const FIXTURE = mcpFixture();

function project(settings: unknown): { home: string; cwd: string } {
  const { home, cleanup } = tempHome('teams-mcp-cli-');
  after(cleanup);
  const cwd = join(home, 'project');
  mkdirSync(cwd);
  writeFileSync(join(home, 'settings.json'), JSON.stringify(settings));
  return { home, cwd };
}

type Listed = { server: string; state: string; error?: string; tools: { name: string }[] }[];

describe('teams mcp list', () => {
  test('starts each server in the sandbox and lists its state and tools; one that fails says why', async () => {
    const { home, cwd } = project({ mcpServers: { fix: { command: process.execPath, args: [FIXTURE] }, broken: { type: 'stdio', command: process.execPath, args: [FIXTURE, '--fail'] } } });
    const json = await runCli(home, ['mcp', 'list', '--json'], {}, cwd);
    assert.equal(json.code, 0, json.stderr);
    const listed = JSON.parse(json.stdout) as Listed;
    const fix = listed.find((s) => s.server === 'fix');
    assert.equal(fix?.state, 'ready', fix?.error);
    assert.deepEqual(fix?.tools.map((t) => t.name).sort(), ['mcp__fix__echo', 'mcp__fix__probe']);
    const broken = listed.find((s) => s.server === 'broken');
    assert.equal(broken?.state, 'failed');
    assert.match(broken?.error ?? '', /exit code 3.*told to fail/);

    const lines = await runCli(home, ['mcp', 'list', '--jsonl'], {}, cwd);
    assert.deepEqual(lines.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { server: string }).server).sort(), ['broken', 'fix']);

    const text = await runCli(home, ['mcp', 'list'], {}, cwd);
    assert.equal(text.code, 0, text.stderr);
    assert.ok(text.stdout.startsWith('MCP servers of ') && text.stdout.includes(`${join(home, 'settings.json')}, ${join(home, 'settings.local.json')}`), text.stdout);
    assert.match(text.stdout, /^fix \(stdio: .*mcp-server\.mjs\): ready$/m);
    assert.match(text.stdout, /^ {2}mcp__fix__echo: Echo the text back\.$/m);
    assert.match(text.stdout, /^broken \(stdio: .*\): failed: failed to start: .*told to fail/m);
  });

  test('.mcp.json at the project root: ${VAR} expanded from the environment, shown as written, each server naming its file', async () => {
    const { home, cwd } = project({});
    writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { fix: { command: process.execPath, args: ['${MCP_TEST_FIXTURE}'] }, unset: { command: process.execPath, args: ['${MCP_TEST_UNSET}'] } } }));
    // Unexpanded, the server would be started on a file named "${MCP_TEST_FIXTURE}", and fail.
    const env = { MCP_TEST_FIXTURE: FIXTURE, TEAMS_CONFIG_DIR: join(home, 'user-config-none') };
    // Until the human trusts the file, its servers are listed, not started.
    const before = await runCli(home, ['mcp', 'list'], env, cwd);
    assert.equal(before.code, 0, before.stderr);
    assert.match(before.stdout, /^fix \(stdio: .*\$\{MCP_TEST_FIXTURE\}\): failed: .*\.mcp\.json is not trusted as it is now: review it, then run `teams mcp trust`/m);
    const trusted = await runCli(home, ['mcp', 'trust'], env, cwd);
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.equal(trusted.stdout, `Trusted ${join(cwd, '.mcp.json')} as it is now:\n  fix: ${process.execPath} \${MCP_TEST_FIXTURE}\n  unset: ${process.execPath} \${MCP_TEST_UNSET}\n`);
    const json = await runCli(home, ['mcp', 'list', '--json'], env, cwd);
    assert.equal(json.code, 0, json.stderr);
    const listed = JSON.parse(json.stdout) as (Listed[number] & { source?: string; target: string })[];
    const fix = listed.find((s) => s.server === 'fix');
    assert.equal(fix?.state, 'ready', fix?.error);
    assert.equal(fix?.source, join(cwd, '.mcp.json'));
    assert.equal(fix?.target, `${process.execPath} \${MCP_TEST_FIXTURE}`);
    assert.deepEqual(fix?.tools.map((t) => t.name).sort(), ['mcp__fix__echo', 'mcp__fix__probe']);
    const unset = listed.find((s) => s.server === 'unset');
    assert.equal(unset?.state, 'failed');
    assert.equal(unset?.error, `${join(cwd, '.mcp.json')}: mcpServers.unset: \${MCP_TEST_UNSET} is not set in the lead's environment and has no default (\${VAR:-default})`);

    const text = await runCli(home, ['mcp', 'list'], env, cwd);
    assert.equal(text.code, 0, text.stderr);
    assert.ok(text.stdout.includes(`${join(home, 'user-config-none', 'settings.json')}, ${join(cwd, '.mcp.json')}, ${join(home, 'settings.json')}`), text.stdout);
    assert.match(text.stdout, /^fix \(stdio: .*\$\{MCP_TEST_FIXTURE\}\): ready\n {2}configured in .*\/project\/\.mcp\.json$/m);
  });

  test('a malformed .mcp.json is an error naming the file and the field, and is not trusted', async () => {
    const { home, cwd } = project({});
    writeFileSync(join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: { fix: { command: 'x', agrs: [] } } }));
    const result = await runCli(home, ['mcp', 'trust'], {}, cwd);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.ok(result.stderr.includes(`${join(cwd, '.mcp.json')}: mcpServers.fix: Unrecognized key: "agrs"`), result.stderr);
  });

  test('no servers: says where to add them', async () => {
    const { home, cwd } = project({});
    const result = await runCli(home, ['mcp', 'list'], {}, cwd);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /No MCP servers: add them under "mcpServers"/);
  });

  test('a malformed section is an error naming the file, the server and the field', async () => {
    for (const [servers, field] of [
      [{ fix: { command: 'x', agrs: [] } }, /mcpServers\.fix: Unrecognized key: "agrs"/],
      [{ 'a b': { command: 'x' } }, /mcpServers\.a b: a server's name may hold only/],
      [{ web: { url: 'ftp://example.com' } }, /mcpServers\.web\.url: the url must be an http or https URL/],
      [{ fix: { command: '' } }, /mcpServers\.fix\.command: the command is empty/],
    ] as const) {
      const { home, cwd } = project({ mcpServers: servers });
      const result = await runCli(home, ['mcp', 'list'], {}, cwd);
      assert.equal(result.code, 2, `${JSON.stringify(servers)}: ${result.stdout}${result.stderr}`);
      assert.ok(result.stderr.includes(join(home, 'settings.json')), result.stderr);
      assert.match(result.stderr, field);
    }
  });
});
