import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { decideToolUse } from '../../src/policy/approvals.js';
import { launcherFor } from '../../src/sandbox/launcher.js';
import { realShellIO } from '../../src/tools/shell.js';
import { bashTool } from '../../src/tools/bash.js';

/**
 * The policy's grant, enforced by the real bubblewrap: what runs unasked can neither write the
 * working directory nor reach the network, whatever the parser thought of the command; what
 * the human approved may write, and reach the network only when it asked to.
 */
// Outside /tmp, which the sandbox replaces with a private one of its own.
const base = mkdtempSync('/var/tmp/teams-grant-');
after(() => rmSync(base, { recursive: true, force: true }));
const work = join(base, 'work');
mkdirSync(work);
const shell = realShellIO({ timeoutMs: 20_000, launch: launcherFor({ kind: 'bwrap', network: 'on', bwrap: 'bwrap' }, () => ({ writable: true, hidden: [] })) });

function decided(command: string, extra: { write?: boolean; network?: boolean } = {}) {
  const decision = decideToolUse({ tool: 'bash', input: { command, ...extra }, mode: 'default', cwd: work, planApproved: true, alwaysAllowed: new Set() });
  assert.notEqual(decision.action, 'deny');
  return decision.action === 'deny' ? assert.fail('denied') : decision;
}

async function listening(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => socket.end('hello\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port };
}

const connect = (port: number) => `node -e "require('net').connect(${port}, '127.0.0.1').on('data', (d) => process.stdout.write(d)).on('error', (e) => { console.error(e.code); process.exit(3); })"`;

describe('the grant, enforced by the sandbox', () => {
  test('a write the parser calls harmless runs unasked, and fails on the read-only working directory with a hint to ask', async () => {
    const decision = decided('touch made-unasked');
    assert.equal(decision.action, 'allow');
    const result = await bashTool.run({ command: 'touch made-unasked' }, { shell, cwd: work, grant: decision.grant });
    assert.equal(result.isError, true);
    assert.match(result.content, /Read-only file system/);
    assert.match(result.content, /call bash with write: true/);
    assert.equal(existsSync(join(work, 'made-unasked')), false);
  });

  test('the same command with write asks, and once approved it writes', async () => {
    const decision = decided('touch made-approved', { write: true });
    assert.equal(decision.action, 'ask');
    const result = await bashTool.run({ command: 'touch made-approved' }, { shell, cwd: work, grant: decision.grant });
    assert.equal(result.isError, undefined, result.content);
    assert.equal(existsSync(join(work, 'made-approved')), true);
  });

  test('an unasked connection attempt fails: the command has only a loopback of its own', async () => {
    const { server, port } = await listening();
    try {
      const unasked = decided(connect(port));
      assert.equal(unasked.action, 'allow');
      const refused = await bashTool.run({ command: connect(port) }, { shell, cwd: work, grant: unasked.grant });
      assert.equal(refused.isError, true);
      assert.match(refused.content, /ECONNREFUSED/);
      // Approved with write only, still offline; approved with network, it reaches the server.
      const writeOnly = decided(connect(port), { write: true });
      assert.match((await bashTool.run({ command: connect(port) }, { shell, cwd: work, grant: writeOnly.grant })).content, /ECONNREFUSED/);
      const online = decided(connect(port), { network: true });
      assert.equal(online.action, 'ask');
      assert.deepEqual(online.grant, { write: true, network: true });
      assert.match((await bashTool.run({ command: connect(port) }, { shell, cwd: work, grant: online.grant })).content, /hello/);
    } finally {
      server.close();
    }
  });
});
