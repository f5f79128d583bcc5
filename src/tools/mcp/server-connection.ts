import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { errorMessage } from '../../lib/index.js';
import { READ_ONLY_GRANT } from '../../policy/index.js';
import type { Launcher } from '../../sandbox/index.js';
import type { ToolResult } from '../tool.js';
import { callResultText } from './call-result.js';
import { describeServer, isHttpServer, type McpServerConfig } from './config.js';
import { LaunchedTransport, type GroupHooks } from './launched-transport.js';
import { listServerTools, type McpToolEntry } from './server-tools.js';

export type McpServerState = 'starting' | 'ready' | 'failed' | 'stopped';

/** One server as `/mcp` and `teams mcp list` show it. */
export type McpServerStatus = {
  server: string;
  transport: 'stdio' | 'http';
  /** How it is started or reached: its command line or its URL. */
  target: string;
  state: McpServerState;
  /** Why it failed or stopped. */
  error?: string;
  tools: McpToolEntry[];
  /** Tools it offered that cannot be offered to the model, each with why. */
  skipped: string[];
  /** The file that configured it, when the lead knows (`teams mcp list`, `/mcp`). */
  source?: string;
};

/**
 * How a server is shown, as the lead read it: its file, and its target as written there, before
 * `${VAR}` expansion (an expanded token must not end up on a screen or in a JSON listing).
 */
export type McpServerAbout = { source: string; target: string };

export type McpStartOptions = {
  /** How a stdio server is started: the agent's own launcher, so it runs in the agent's sandbox. */
  launch: Launcher;
  cwd: string;
  /** Bounds the start: the handshake and the tool list. */
  timeoutMs: number;
  hooks?: GroupHooks;
  /** Called when a server fails to start or stops, with its status. */
  onChange?: (status: McpServerStatus) => void;
};

/** Each tool call may take this long; the agent's Esc interrupts it sooner. */
const CALL_TIMEOUT_MS = 10 * 60_000;

/** A shell word that is exactly `text`: the launcher takes one command line for `/bin/sh -c`. */
function shellWord(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * One configured server, through the SDK's Client: started (or reached), its tools listed
 * once, its calls made, its end noticed. Never throws: a server that fails is a status, and
 * its tools answer with the reason.
 */
export class McpServerConnection {
  readonly status: McpServerStatus;
  private client?: Client;
  private transport?: Transport;

  constructor(name: string, private readonly config: McpServerConfig, private readonly options: McpStartOptions, about?: McpServerAbout) {
    const transport = isHttpServer(config) ? 'http' : 'stdio';
    this.status = { server: name, transport, target: about?.target ?? describeServer(config), state: 'starting', tools: [], skipped: [], ...(about ? { source: about.source } : {}) };
  }

  async start(): Promise<void> {
    const client = new Client({ name: 'teams', version: '1' }, { capabilities: {} });
    this.client = client;
    let timer: NodeJS.Timeout | undefined;
    try {
      const transport = this.openTransport();
      this.transport = transport;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${this.options.timeoutMs / 1000} s`)), this.options.timeoutMs);
      });
      await Promise.race([client.connect(transport, { timeout: this.options.timeoutMs }), timeout]);
      const listed = await Promise.race([listServerTools(client, this.status.server), timeout]);
      this.status.tools = listed.tools;
      this.status.skipped = listed.skipped;
      this.status.state = 'ready';
      client.onclose = () => this.stopped();
    } catch (error) {
      this.fail(`failed to start: ${this.why(errorMessage(error))}`);
      await client.close().catch(() => undefined);
    } finally {
      clearTimeout(timer);
    }
  }

  private openTransport(): Transport {
    const config = this.config;
    if (isHttpServer(config)) return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } });
    const command = `exec ${[config.command, ...config.args].map(shellWord).join(' ')}`;
    // Read-only and offline, as a command that no one approved: the server runs for the whole
    // session, so no single approval could stand for it.
    const launch = this.options.launch(command, this.options.cwd, READ_ONLY_GRANT);
    return new LaunchedTransport({ ...launch, env: { ...launch.env, ...config.env } }, this.options.cwd, this.options.hooks);
  }

  /** The error, with how the process ended and the end of its stderr when it said something. */
  private why(error: string): string {
    const transport = this.transport;
    if (!(transport instanceof LaunchedTransport)) return error;
    const exit = transport.exit !== undefined && transport.exit !== 'closed' ? ` (${transport.exit})` : '';
    const stderr = transport.stderrTail();
    return `${error}${exit}${stderr === '' ? '' : `: ${stderr.split('\n').slice(-3).join(' / ')}`}`;
  }

  private stopped(): void {
    if (this.status.state !== 'ready') return;
    this.fail(this.why('the server stopped'));
  }

  private fail(error: string): void {
    this.status.state = this.status.state === 'ready' ? 'stopped' : 'failed';
    this.status.error = error;
    this.options.onChange?.(this.status);
  }

  async call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> {
    const name = `mcp__${this.status.server}__${tool}`;
    if (this.status.state !== 'ready' || !this.client) {
      return { content: `${name}: the MCP server '${this.status.server}' is not running (${this.status.error ?? this.status.state}); its tools cannot be used now`, isError: true };
    }
    try {
      return callResultText(name, await this.client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: CALL_TIMEOUT_MS }));
    } catch (error) {
      return { content: `${name} failed: ${this.why(errorMessage(error))}`, isError: true };
    }
  }

  async close(): Promise<void> {
    // Closing is not the server failing: no report.
    this.status.state = this.status.state === 'ready' ? 'stopped' : this.status.state;
    this.status.error ??= 'closed';
    await this.client?.close().catch(() => undefined);
  }
}
