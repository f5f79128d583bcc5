import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { asError, killProcessGroup } from '../../lib/index.js';
import { spawnLaunch, type Launch } from '../../sandbox/index.js';
import { CappedOutput } from '../capped-output.js';

/** A line of JSON-RPC longer than this ends the server: a hostile one must not grow our memory without end. */
const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
/** What is kept of a server's stderr, to say why it failed. */
const STDERR_BYTES = 2_000;

export type GroupHooks = {
  /** The server's process group once it starts, so a supervisor can reap it if this process dies (as for a command). */
  onSpawn?: (pgid: number) => void;
  onExit?: (pgid: number) => void;
};

/**
 * The SDK's stdio transport, but started the way every agent's command is (spawnLaunch): inside
 * the agent's sandbox, with its seccomp filter on fd 3 and its limits, as the leader of a process
 * group that is killed whole on close. The SDK's own StdioClientTransport spawns the program
 * itself and could do neither. Framing is the SDK's (ReadBuffer, serializeMessage).
 */
export class LaunchedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private child?: ChildProcessByStdio<Writable, Readable, Readable>;
  private readonly buffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });
  private readonly stderr = new CappedOutput(STDERR_BYTES);
  private closed = false;
  /** How the process ended, once it has: "exit code 1", "killed by SIGKILL". */
  exit?: string;

  constructor(
    private readonly launch: Launch,
    private readonly cwd: string,
    private readonly hooks: GroupHooks = {},
  ) {}

  /** The end of what the server wrote to stderr: why it failed, when it says. */
  stderrTail(): string {
    return this.stderr.text().trim();
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawnLaunch(this.launch, this.cwd, 'pipe');
      this.child = child;
      child.stdin.on('error', (error) => this.onerror?.(error));
      child.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk));
      child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
      child.once('error', (error) => {
        this.ended(`could not start: ${error.message}`);
        reject(error);
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) this.hooks.onSpawn?.(child.pid);
        resolve();
      });
      // Its last words may still be in the pipe at 'exit': read to 'close', with whatever else
      // of its group held the pipe open killed now, so that 'close' comes.
      child.once('exit', (code, signal) => {
        this.exit ??= signal ? `killed by ${signal}` : `exit code ${code}`;
        if (child.pid !== undefined) killProcessGroup(child.pid);
      });
      child.once('close', () => this.ended(this.exit ?? 'closed'));
    });
  }

  private read(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message !== null; message = this.buffer.readMessage()) this.onmessage?.(message);
    } catch (error) {
      // Not JSON-RPC, or too long: a server speaking anything else is not one we can talk to.
      this.onerror?.(asError(error));
      void this.close();
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed) return Promise.reject(new Error(`the server is not running${this.exit ? ` (${this.exit})` : ''}`));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  close(): Promise<void> {
    this.ended(this.exit ?? 'closed');
    return Promise.resolve();
  }

  /** Once, however it ended: the whole group killed, what bounded it released, the client told. */
  private ended(how: string): void {
    if (this.closed) return;
    this.closed = true;
    this.exit = how;
    const pid = this.child?.pid;
    if (pid !== undefined) {
      killProcessGroup(pid);
      this.hooks.onExit?.(pid);
    }
    this.launch.release?.();
    this.buffer.clear();
    this.onclose?.();
  }
}
