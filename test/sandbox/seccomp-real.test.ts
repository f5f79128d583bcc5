import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { FULL_GRANT } from '../../src/policy/grant.js';
import { launcherFor, type Launcher } from '../../src/sandbox/launcher.js';
import { probeSandbox } from '../../src/sandbox/probe.js';
import { seccompFilter } from '../../src/sandbox/seccomp.js';
import { startControlServer } from '../../src/lead/control.js';
import { runHookProcess } from '../../src/hooks/process.js';
import { realShellIO, type ShellIO } from '../../src/tools/shell.js';

/**
 * The real bubblewrap with the seccomp filter, given the most a command can get (write and
 * network: the host's network namespace, where abstract sockets are shared). Everything lives
 * under /var/tmp, which the sandbox sees (its /tmp is private): what stops a connection here is
 * the filter, which the same sandbox without it shows.
 */
const base = mkdtempSync('/var/tmp/teams-seccomp-');
const work = join(base, 'work');
const pathSocket = join(base, 'agent.sock');
const leadSocket = join(base, 'lead', 'lead.sock');
const abstractName = `teams-seccomp-${randomBytes(6).toString('hex')}`;
const client = join(base, 'client.cjs');

// `@name` is an abstract socket (a NUL cannot go through a shell); `tcp:port` 127.0.0.1.
const CLIENT = `
const net = require('node:net');
const target = process.argv[2];
const to = target.startsWith('tcp:') ? { host: '127.0.0.1', port: Number(target.slice(4)) } : { path: target.startsWith('@') ? '\\0' + target.slice(1) : target };
const socket = net.connect(to, () => socket.write('{}\\n'));
socket.setEncoding('utf8');
let said = '';
socket.on('data', (chunk) => { said += chunk; });
socket.on('end', () => console.log('connected: ' + said.trim()));
socket.on('error', (error) => console.log('failed: ' + error.code));
`;

const launch = launcherFor({ kind: 'bwrap', network: 'on', bwrap: 'bwrap' }, () => ({ writable: true, hidden: [] }));
/** The same sandbox with the filter taken out: what each connection does without it. */
const unfiltered: Launcher = (command, cwd, grant) => {
  const full = launch(command, cwd, grant);
  const at = full.args.indexOf('--seccomp');
  assert.ok(at >= 0, 'the launch carries the filter');
  return { file: full.file, args: full.args.filter((_, i) => i !== at && i !== at + 1), env: full.env };
};
const filtered: ShellIO = realShellIO({ timeoutMs: 20_000, launch });
const bare: ShellIO = realShellIO({ timeoutMs: 20_000, launch: unfiltered });

const servers: Server[] = [];
let lead: { close(): Promise<void> } | undefined;
let tcpPort = 0;

function listen(address: string | { port: number; host: string }): Promise<Server> {
  const server = createServer((socket) => {
    socket.on('error', () => socket.destroy());
    // Read (and drop) what the client sends: a socket never read never sees its end, and the server would not close.
    socket.resume();
    socket.end('hello\n');
  });
  servers.push(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => resolve(server));
  });
}

async function connect(shell: ShellIO, target: string): Promise<string> {
  const result = await shell.exec(`${JSON.stringify(process.execPath)} ${client} '${target}'`, { cwd: work, grant: FULL_GRANT });
  assert.equal(result.exitCode, 0, result.stderr);
  return result.stdout.trim();
}

before(async () => {
  const probe = probeSandbox('bwrap', 'on');
  assert.ok(probe.ok, `bubblewrap must work here: ${probe.ok ? '' : probe.reason}`);
  assert.ok(seccompFilter().ok, `these tests need a filter for ${process.arch}`);
  mkdirSync(work, { recursive: true });
  writeFileSync(client, CLIENT);
  await listen(pathSocket);
  await listen(`\0${abstractName}`);
  tcpPort = ((await listen({ port: 0, host: '127.0.0.1' })).address() as AddressInfo).port;
  // The lead's own control server, on a socket in a directory nothing hides (a state root or a
  // temp dir the hidden list missed): the filter must keep it out of reach all the same.
  lead = await startControlServer(leadSocket, 'x'.repeat(48), () => Promise.resolve({ ok: true, message: 'done' }), () => undefined);
});

after(async () => {
  try {
    await lead?.close();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

describe('the seccomp filter in the real sandbox, with write and network granted', () => {
  test('a Unix socket outside the sandbox, in a directory it can see, cannot be connected to', async () => {
    assert.equal(await connect(filtered, pathSocket), 'failed: EPERM');
    assert.equal(await connect(bare, pathSocket), 'connected: hello');
  });

  test('nor can an abstract-namespace socket, shared through the host network namespace', async () => {
    assert.equal(await connect(filtered, `@${abstractName}`), 'failed: EPERM');
    assert.equal(await connect(bare, `@${abstractName}`), 'connected: hello');
  });

  test("nor the lead's control socket, were its directory visible", async () => {
    assert.equal(await connect(filtered, leadSocket), 'failed: EPERM');
    // Reached without the filter: the lead answers (and refuses the token-less line).
    assert.match(await connect(bare, leadSocket), /^connected: \{"ok":false/);
  });

  test('a hook runs under the same filter (one spawner for both)', async () => {
    const command = `${JSON.stringify(process.execPath)} ${client} '@${abstractName}'`;
    const hook = await runHookProcess(command, { cwd: work, input: '', timeoutS: 20, launch, grant: FULL_GRANT });
    assert.deepEqual(hook.exit, { kind: 'exited', code: 0, signal: null }, hook.stderr);
    assert.equal(hook.stdout.trim(), 'failed: EPERM');
  });

  test('TCP to 127.0.0.1 still works when the network is granted', async () => {
    assert.equal(await connect(filtered, `tcp:${tcpPort}`), 'connected: hello');
  });

  test('a child process with pipes and an IPC channel (socketpair) still works', async () => {
    const script = `const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', 'process.send("over ipc"); console.log("over a pipe")'], { stdio: ['pipe', 'pipe', 'inherit', 'ipc'] });
let out = ''; child.stdout.on('data', (d) => { out += d; });
child.on('message', (m) => console.log(m));
child.on('close', () => console.log(out.trim()));`;
    writeFileSync(join(base, 'pipes.cjs'), script);
    const result = await filtered.exec(`${JSON.stringify(process.execPath)} ${join(base, 'pipes.cjs')}`, { cwd: work, grant: FULL_GRANT });
    assert.equal(result.stdout, 'over ipc\nover a pipe\n', result.stderr);
  });

  test('bubblewrap does not pass the filter descriptor on to the command', async () => {
    // The command's shell: its fd 3 would be the socket from the teams process, were it left open.
    const result = await filtered.exec('readlink /proc/$$/fd/3 || echo closed', { cwd: work, grant: FULL_GRANT });
    assert.equal(result.stdout, 'closed\n', result.stderr);
  });
});

describe('a bubblewrap or kernel that will not load the filter', () => {
  test('leaves no sandbox: the probe fails and says why, rather than commands running unfiltered', () => {
    // A bubblewrap that runs everything but a filter, as an old kernel or a seccomp-less build would.
    const refusing = join(base, 'bwrap-without-seccomp');
    writeFileSync(refusing, '#!/bin/sh\ncase " $* " in *" --seccomp "*) echo "bwrap: seccomp not supported" >&2; exit 1;; esac\nexec bwrap "$@"\n');
    chmodSync(refusing, 0o755);
    const probe = probeSandbox(refusing, 'on');
    assert.deepEqual(probe, { ok: false, reason: 'bubblewrap cannot load the seccomp filter that blocks Unix sockets (bwrap: seccomp not supported)' });
  });
});
