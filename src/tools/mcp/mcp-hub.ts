import * as z from 'zod';
import { EventStream } from '../../lib/index.js';
import { defineTool, type Tool } from '../tool.js';
import type { McpServers } from './config.js';
import { McpServerConnection, type McpServerAbout, type McpServerStatus, type McpStartOptions } from './server-connection.js';

/**
 * What the lead knows of its servers beyond their configuration: each one's file and target as
 * written (`about`), and those it could not even configure (`failed`: an unset `${VAR}`, say),
 * listed and reported with the rest while the others start.
 */
export type McpHubOptions = Omit<McpStartOptions, 'onChange'> & { about?: Record<string, McpServerAbout>; failed?: McpServerStatus[] };

/** How long a server has to start and list its tools before the agent goes on without it. */
const MCP_START_TIMEOUT_MS = 20_000;

/** Any object: the server checks a call's arguments against the schema it gave. */
const McpArguments = z.record(z.string(), z.unknown());

/**
 * An agent's MCP servers: every configured one started at once (each bounded by the start
 * timeout), their tools offered to the model as `mcp__<server>__<tool>`, all closed with the
 * agent. A server that fails or stops is reported on `changes` and the agent goes on
 * without it: its tools stay in the list (the model's tool list is fixed for the session, so
 * the prompt cache holds) and answer with why they cannot run.
 */
export class McpHub {
  private readonly connections: McpServerConnection[];
  private readonly failed: McpServerStatus[];
  /** A server that failed to start or stopped, as it is then. */
  readonly changes = new EventStream<McpServerStatus>();

  constructor(servers: McpServers, { about = {}, failed = [], ...options }: McpHubOptions) {
    const onChange = (status: McpServerStatus) => this.changes.emit({ ...status });
    this.connections = Object.entries(servers).map(([name, config]) => new McpServerConnection(name, config, { ...options, onChange }, about[name]));
    this.failed = failed;
  }

  /** A hub with every server started or failed; with none configured, at once. */
  static async started(servers: McpServers, options: Omit<McpHubOptions, 'timeoutMs'> & { timeoutMs?: number }): Promise<McpHub> {
    const hub = new McpHub(servers, { ...options, timeoutMs: options.timeoutMs ?? MCP_START_TIMEOUT_MS });
    await hub.start();
    return hub;
  }

  /** Resolves once every server is ready or has failed; never rejects. */
  async start(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.start()));
  }

  statuses(): McpServerStatus[] {
    return [...this.failed.map((status) => ({ ...status })), ...this.connections.map((connection) => ({ ...connection.status }))];
  }

  /** The tools of the servers that started, as the agent's toolset takes them. */
  tools(): Tool<typeof McpArguments, unknown>[] {
    return this.connections.flatMap((connection) =>
      connection.status.tools.map((entry) =>
        defineTool({
          name: entry.name,
          description: entry.description,
          input: McpArguments,
          schema: entry.inputSchema,
          run: (input, _io: unknown, signal) => connection.call(entry.tool, input, signal),
        }),
      ),
    );
  }

  async close(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.close()));
  }
}
