import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/**
 * A descriptor the lead was started with (here a Unix socket on fd 19, whose other end this test
 * holds) does not reach a sandboxed command: the seccomp filter refuses new sockets only.
 */
const fixture = join(fileURLToPath(new URL('.', import.meta.url)), 'inherited-fds-fixture.js');

const text = (stream: Readable): Promise<string> =>
  new Promise((resolve) => {
    let said = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (said += chunk));
    stream.on('close', () => resolve(said));
  });

test("a Unix socket inherited by the lead is not a sandboxed command's way out", async () => {
  const child = spawn(process.execPath, [fixture], { stdio: ['ignore', 'pipe', 'inherit', ...Array<'ignore'>(16).fill('ignore'), 'pipe'] });
  const socket: unknown = (child.stdio as unknown[])[19];
  assert.ok(socket !== null && typeof socket === 'object' && 'setEncoding' in socket && child.stdout);
  const [printed, received] = await Promise.all([text(child.stdout), text(socket as Readable)]);
  assert.equal(received, '', 'the sandboxed command wrote to the socket');
  assert.equal(printed, 'refused\n');
});
