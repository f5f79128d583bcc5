import * as z from 'zod';
import { MCP_SERVER_NAME } from '../../policy/index.js';

/**
 * The `mcpServers` section of the settings, in Claude Code's shape:
 *
 *   "mcpServers": {
 *     "git": { "command": "uvx", "args": ["mcp-server-git"], "env": { "X": "1" } },
 *     "docs": { "url": "https://example.com/mcp" }
 *   }
 *
 * A server with `command` is started over stdio, inside the sandbox of the agent it serves; one
 * with `url` is reached over streamable HTTP. Strict: a misspelt field ("agrs") would be a
 * server that silently starts some other way.
 */
const StdioServer = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().trim().min(1, 'the command is empty'),
  args: z.array(z.string()).default([]),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'not a variable name'), z.string()).default({}),
});
const HttpServer = z.strictObject({
  type: z.enum(['http', 'streamable-http']).optional(),
  url: z.url({ protocol: /^https?$/, error: 'the url must be an http or https URL' }),
  headers: z.record(z.string(), z.string()).default({}),
});
export type McpStdioServer = z.output<typeof StdioServer>;
export type McpHttpServer = z.output<typeof HttpServer>;
export type McpServerConfig = McpStdioServer | McpHttpServer;

/** Which of the two a server is, by the field Claude Code tells them apart by. */
function serverSchema(value: unknown) {
  return typeof value === 'object' && value !== null && 'url' in value ? HttpServer : StdioServer;
}


/** The servers by name; none when the section is absent. Errors name the server and the field (`mcpServers.git.args`). */
export const McpServers = z
  .record(z.string(), z.unknown())
  .default({})
  .transform((servers, ctx) => {
    const parsed: Record<string, McpServerConfig> = {};
    for (const [name, value] of Object.entries(servers)) {
      if (!MCP_SERVER_NAME.test(name)) {
        ctx.addIssue({ code: 'custom', message: "a server's name may hold only letters, digits, '-' and single '_' (its tools are named mcp__<server>__<tool>)", path: [name] });
        continue;
      }
      const one = serverSchema(value).safeParse(value);
      if (one.success) parsed[name] = one.data;
      else for (const issue of one.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: [name, ...issue.path] });
    }
    return parsed;
  });
export type McpServers = Record<string, McpServerConfig>;

export function isHttpServer(server: McpServerConfig): server is McpHttpServer {
  return 'url' in server;
}

/** How a server is started or reached, for a person (`teams mcp list`). */
export function describeServer(server: McpServerConfig): string {
  return isHttpServer(server) ? server.url : [server.command, ...server.args].join(' ');
}
