import type { Command } from 'commander';
import { inertText } from '../../lib/index.js';
import { checkMcpServers, trustProjectMcpJson } from '../../lead/index.js';
import { describeMcpServers } from '../../tools/index.js';
import type { ContextFor } from '../context.js';
import { jsonOptions, jsonSink, type OutputFlags } from '../json-output.js';

/**
 * `teams mcp list`: the project's MCP servers (`mcpServers` of .mcp.json and the settings), each started in
 * the sandbox as an agent's would be, with its state and its tools as the model sees them.
 */
export function registerMcpCommands(program: Command, contextFor: ContextFor): void {
  const mcp = program.command('mcp').description("the MCP servers of .mcp.json and the settings (mcpServers in <home>/settings.json and the other layers)");
  const list = mcp.command('list').description('start each server in the sandbox, list its state and tools, and stop it');
  jsonOptions(list, 'servers').action(async (options: OutputFlags, command: Command) => {
    const sink = jsonSink(options);
    const checked = await checkMcpServers(contextFor(command).paths, process.cwd());
    if (sink) {
      checked.servers.forEach((server) => sink.add(server));
      sink.end();
      return;
    }
    process.stdout.write(inertText(`MCP servers of ${checked.files.join(', ')}\n${describeMcpServers(checked.servers).join('\n')}\n`));
  });
  // As Claude Code asks before it uses a project's .mcp.json: the file is in the working tree, which teammates can write.
  mcp
    .command('trust')
    .description("trust the project's .mcp.json as it is now: its servers are used only while it stays exactly so")
    .action((_options: unknown, command: Command) => {
      const trusted = trustProjectMcpJson(contextFor(command).paths.home, process.cwd());
      const servers = trusted.servers.map(({ server, target }) => `  ${server}: ${target}`);
      process.stdout.write(inertText(`Trusted ${trusted.file} as it is now${servers.length === 0 ? ' (no servers)' : ':'}\n${servers.map((line) => `${line}\n`).join('')}`));
    });
}
