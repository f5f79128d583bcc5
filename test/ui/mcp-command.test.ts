import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCommand } from '../../src/ui/command-runner.js';
import { parseCommand } from '../../src/ui/commands.js';
import type { ReplRuntime } from '../../src/ui/runtime.js';
import type { McpServerStatus } from '../../src/tools/index.js';

const STATUSES: McpServerStatus[] = [
  { server: 'git', transport: 'stdio', target: 'uvx mcp-server-git', state: 'ready', tools: [{ name: 'mcp__git__status', tool: 'status', description: 'Show the working tree status.\nMore.', inputSchema: { type: 'object' } }], skipped: ['tool name \'bad name\' may hold only letters, digits, \'-\' and \'_\''] },
  { server: 'docs', transport: 'http', target: 'https://example.com/mcp', state: 'failed', error: 'failed to start: fetch failed', tools: [], skipped: [] },
];

/** Only what /mcp reads of the runtime: the lead's servers. */
const runtimeWith = (mcp: ReplRuntime['mcp']) => ({ mcp }) as unknown as ReplRuntime;

describe('/mcp', () => {
  test('parses with no arguments only', () => {
    assert.deepEqual(parseCommand('/mcp'), { ok: true, command: { name: 'mcp' } });
    assert.deepEqual(parseCommand('/mcp list'), { ok: false, error: '/mcp takes no arguments' });
  });

  test("lists the lead's servers: state, why one failed, each tool by the name the model calls it", async () => {
    const [item] = await runCommand({ name: 'mcp' }, runtimeWith({ statuses: () => STATUSES }));
    assert.deepEqual(item, {
      kind: 'output',
      text: [
        'git (stdio: uvx mcp-server-git): ready',
        '  mcp__git__status: Show the working tree status.',
        "  (not offered) tool name 'bad name' may hold only letters, digits, '-' and '_'",
        'docs (http: https://example.com/mcp): failed: failed to start: fetch failed',
      ].join('\n'),
    });
  });

  test('names the file each server came from, when the lead knows it', async () => {
    const fromFile: McpServerStatus = { server: 'fix', transport: 'stdio', target: 'node ${FIXTURE}', state: 'ready', tools: [], skipped: [], source: '/work/project/.mcp.json' };
    const [item] = await runCommand({ name: 'mcp' }, runtimeWith({ statuses: () => [fromFile] }));
    assert.deepEqual(item, { kind: 'output', text: 'fix (stdio: node ${FIXTURE}): ready\n  configured in /work/project/.mcp.json' });
  });

  test('with none, says where they are configured', async () => {
    const [item] = await runCommand({ name: 'mcp' }, runtimeWith(undefined));
    assert.match(item?.kind === 'output' ? item.text : '', /^No MCP servers: add them under "mcpServers" in \.teams\/settings\.json/);
  });
});
