import { dirname } from 'node:path';
import * as z from 'zod';
import { Refused, describeIssues } from '../lib/index.js';
import { MCP_SERVER_NAME } from '../policy/index.js';
import { McpServers, type McpServerAbout, type McpServerStatus } from '../tools/index.js';
import { expandServer } from './mcp-expand.js';
import { MCP_JSON, readMcpJson } from './mcp-json.js';
import { isTrustedMcpJson, trustMcpJson } from './mcp-json-trust.js';
import { readSettingsJson, settingsFiles } from './settings-layers.js';

/**
 * The project's MCP servers, in Claude Code's shape (tools/mcp/config.ts), from these files in
 * this order, a server named in a later one replacing one of the same name: the user's settings,
 * the project's `.mcp.json` (mcp-json.ts), the project's settings, the local settings
 * (settings-layers.ts). `${VAR}` is expanded from the lead's environment (mcp-expand.ts). A
 * teammate never reads any of them: it is handed what the lead read when it is spawned.
 *
 * The settings live where no agent's tools or sandbox reach, and are read again at each spawn.
 * `.mcp.json` lives in the working tree, which a teammate's commands may write, so:
 * - its servers are used only while the file is the one the human trusted (mcp-json-trust.ts);
 * - it is read once, when the lead starts (`ProjectMcpServers`), and what was read then is all
 *   any agent of the session gets: a teammate that rewrites it changes no server of the session;
 * - its stdio servers start only inside the sandbox (read-only, offline): where the session has
 *   none (`--no-sandbox`, or bubblewrap missing in bypass mode) they are reported failed, since
 *   nothing outside the sandbox may run what a sandboxed command could have written.
 * Read apart from the rules and hooks: a mistake here must not cost the project its deny rules.
 */
/** `trusted`: false for a `.mcp.json` the human has not vouched for as it is now (the settings always are). */
type McpLayer = { file: string; json: unknown; inWorkingTree: boolean; trusted: boolean };

/** A layer's section as read, each server still unchecked: it is expanded before the schema sees it. */
const RawLayer = z.looseObject({ mcpServers: z.record(z.string(), z.unknown()).default({}) });
const McpFile = z.looseObject({ mcpServers: McpServers });
/** Just enough of a server as written to show it: its URL, or its command line. */
const WrittenTarget = z.union([
  z.object({ url: z.string() }).transform((server) => ({ transport: 'http' as const, target: server.url })),
  z.object({ command: z.string(), args: z.array(z.string()).default([]) }).transform((server) => ({ transport: 'stdio' as const, target: [server.command, ...server.args].join(' ') })),
]);

export type ProjectMcp = {
  /** Those that can be started, expanded. */
  servers: McpServers;
  /** Each server's file and its target as written, for `/mcp` and `teams mcp list`. */
  about: Record<string, McpServerAbout>;
  /** Those that cannot, each with why: reported and listed, while the others start. */
  failed: McpServerStatus[];
};

function failedStatus(server: string, raw: unknown, source: string, error: string): McpServerStatus {
  const written = WrittenTarget.safeParse(raw);
  const { transport, target } = written.success ? written.data : { transport: 'stdio' as const, target: '' };
  return { server, transport, target, state: 'failed', error, tools: [], skipped: [], source };
}

/** The layers merged; throws, naming the file and the field (`mcpServers.git.args`), when one is malformed. */
export function mcpServersOf(layers: readonly McpLayer[], env: NodeJS.ProcessEnv, sandboxed: boolean): ProjectMcp {
  const servers: McpServers = {};
  const about: Record<string, McpServerAbout> = {};
  const failed = new Map<string, McpServerStatus>();
  for (const { file, json, inWorkingTree, trusted } of layers) {
    const raw = RawLayer.safeParse(json);
    if (!raw.success) throw new Refused(`${file}: ${describeIssues(raw.error, 'settings')}`);
    const expanded: Record<string, unknown> = {};
    for (const [name, server] of Object.entries(raw.data.mcpServers)) {
      // An untrusted file decides nothing: not even to displace a server another layer defines.
      if (!trusted && MCP_SERVER_NAME.test(name) && (name in servers || failed.has(name))) continue;
      delete servers[name];
      failed.delete(name);
      const written = WrittenTarget.safeParse(server);
      about[name] = { source: file, target: written.success ? written.data.target : '' };
      // Not even expanded: which variables an untrusted file names must not decide anything.
      if (!trusted && MCP_SERVER_NAME.test(name)) {
        failed.set(name, failedStatus(name, server, file, `${file} is not trusted as it is now: review it, then run \`teams mcp trust\` in ${dirname(file)}`));
        continue;
      }
      const { value, missing } = expandServer(server, env);
      // A bad name stays for the schema, which refuses it with the rest of the file's mistakes.
      if (missing.length > 0 && MCP_SERVER_NAME.test(name)) {
        const unset = missing.map((variable) => `\${${variable}}`).join(', ');
        failed.set(name, failedStatus(name, server, file, `${file}: mcpServers.${name}: ${unset} is not set in the lead's environment and has no default (\${VAR:-default})`));
      } else if (inWorkingTree && !sandboxed && written.success && written.data.transport === 'stdio') {
        failed.set(name, failedStatus(name, server, file, `a stdio server from ${MCP_JSON}, which teammates can write, runs only inside the sandbox, and there is none here`));
      } else expanded[name] = value;
    }
    const parsed = McpFile.safeParse({ mcpServers: expanded });
    if (!parsed.success) throw new Refused(`${file}: ${describeIssues(parsed.error, 'settings')}`);
    Object.assign(servers, parsed.data.mcpServers);
  }
  return { servers, about, failed: [...failed.values()] };
}

/**
 * `teams mcp trust`: the human vouches for the project's `.mcp.json` as it is now, once it is
 * well formed (a malformed one is refused, naming the file and the field). Its servers as
 * written, for the human to see what was trusted.
 */
export function trustProjectMcpJson(home: string, cwd: string, env: NodeJS.ProcessEnv = process.env): { file: string; servers: { server: string; target: string }[] } {
  const { file, json, text } = readMcpJson(cwd);
  if (text === '') throw new Refused(`${file}: no such file`);
  const { about } = mcpServersOf([{ file, json, inWorkingTree: true, trusted: true }], env, true);
  trustMcpJson(home, file, text);
  return { file, servers: Object.entries(about).map(([server, { target }]) => ({ server, target })) };
}

/**
 * One lead's view of its servers: `.mcp.json` read once, at the start (a malformed one refuses
 * the start, naming the file and the field), the settings read again at each `load`.
 */
export class ProjectMcpServers {
  private readonly mcpJson: McpLayer;

  constructor(
    private readonly home: string,
    cwd: string,
    /** Whether this session's agents run their commands in bubblewrap. */
    private readonly sandboxed: boolean,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    const read = readMcpJson(cwd);
    this.mcpJson = { file: read.file, json: read.json, inWorkingTree: true, trusted: isTrustedMcpJson(home, read.file, read.text) };
    this.load();
  }

  /** The files read, in their order. */
  files(): string[] {
    return this.layers(() => undefined).map(({ file }) => file);
  }

  load(): ProjectMcp {
    return mcpServersOf(this.layers(readSettingsJson), this.env, this.sandboxed);
  }

  /** `.mcp.json` as read at the start, between the user's settings and the project's, as Claude Code ranks them. */
  private layers(read: (file: string) => unknown): McpLayer[] {
    const settings = settingsFiles(this.home, this.env).map(({ scope, file }) => ({ scope, file, json: read(file), inWorkingTree: false, trusted: true }));
    return [...settings.filter(({ scope }) => scope === 'user'), this.mcpJson, ...settings.filter(({ scope }) => scope !== 'user')];
  }
}
