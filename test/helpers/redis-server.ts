import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { connectRedis, redisTarget, type RedisClient } from '../../src/store/redis/connection.js';
import { killAll } from './children.js';
import { waitFor } from './wait.js';

/**
 * A real redis-server for one test file: on a free loopback port, with its data in a temporary
 * directory and every write fsynced before it is acknowledged (appendfsync always, as the
 * durability figures in docs/ assume), stopped by its pid. `stop` and `start` again keep the
 * data (the append-only file), for tests of a server that goes away mid-flow.
 */
export type RedisServer = {
  readonly url: string;
  readonly port: number;
  /** The running server's pid, or undefined while it is stopped. */
  pid(): number | undefined;
  /** Stop the server (SIGKILL: as a crash would) and wait until it is gone. */
  stop(): Promise<void>;
  /** Start it again on the same port with the same data. */
  start(): Promise<void>;
  /** Stop it and remove its data. */
  close(): Promise<void>;
};

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('error', () => resolve(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
  });
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** `appendfsync`: 'always' (the default, what tests run with) or 'everysec' (what a bench compares it with). */
export async function startRedisServer(options: { appendfsync?: 'always' | 'everysec' } = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'teams-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', options.appendfsync ?? 'always', '--daemonize', 'no', '--logfile', join(dir, 'redis.log')],
      { stdio: 'ignore' },
    );
    child = started;
    running.add(started);
    started.once('exit', () => running.delete(started));
    await waitFor(async () => started.exitCode === null && (await answersPing(port)), `redis-server on port ${port} to answer`);
  };
  const stop = async () => {
    const stopping = child;
    child = undefined;
    if (!stopping || stopping.exitCode !== null || stopping.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => stopping.once('exit', () => resolve()));
    stopping.kill('SIGKILL');
    await gone;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: () => child?.pid,
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The redis-server of one test file and a plain client on it, both ready once the file's `before` ran. */
export class RedisForFile {
  private started: { server: RedisServer; client: RedisClient } | undefined;

  /** Registers the file's `before` (start) and `after` (children killed, client and server closed). */
  constructor() {
    before(async () => {
      const server = await startRedisServer();
      this.started = { server, client: await connectRedis(redisTarget(server.url)) };
    });
    after(async () => {
      await killAll();
      this.started?.client.destroy();
      await this.started?.server.close();
    });
  }

  get server(): RedisServer {
    if (!this.started) throw new Error('the redis-server starts in the test file\'s before()');
    return this.started.server;
  }

  get client(): RedisClient {
    if (!this.started) throw new Error('the redis-server starts in the test file\'s before()');
    return this.started.client;
  }
}

/**
 * A redis-server for one test file that starts only when a test first asks for its URL: a
 * module every e2e file imports (test/e2e/session.ts) can hold one without every file paying
 * for a server it never uses. It is stopped in the file's `after`.
 */
export class LazyRedisForFile {
  private starting: Promise<RedisServer> | undefined;

  /** Must be constructed while the test file loads (top level), so that its `after` is the file's. */
  constructor() {
    after(async () => {
      const starting = this.starting;
      this.starting = undefined;
      // Every child (lead, teammates) first: they hold connections to the server.
      await killAll();
      await (await starting?.catch(() => undefined))?.close();
    });
  }

  /** The server's URL, starting it on the first call. */
  async url(): Promise<string> {
    this.starting ??= startRedisServer();
    return (await this.starting).url;
  }
}
