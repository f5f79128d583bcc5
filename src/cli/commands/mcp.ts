import type { Command } from 'commander';
import { inertJson, inertText } from '../../lib/index.js';
import { checkMcpServers } from '../../lead/index.js';
import { describeMcpServers } from '../../tools/index.js';
import type { ContextFor } from '../context.js';

/**
 * `teams mcp list`: the project's MCP servers (settings.json's `mcpServers`), each started in
 * the sandbox as an agent's would be, with its state and its tools as the model sees them.
 */
export function registerMcpCommands(program: Command, contextFor: ContextFor): void {
  const mcp = program.command('mcp').description("the project's MCP servers (mcpServers in <home>/settings.json)");
  mcp
    .command('list')
    .description('start each server in the sandbox, list its state and tools, and stop it')
    .option('--json', 'one JSON object')
    .action(async (options: { json?: boolean }, command: Command) => {
      const checked = await checkMcpServers(contextFor(command).paths, process.cwd());
      if (options.json) {
        process.stdout.write(`${inertJson(checked)}\n`);
        return;
      }
      process.stdout.write(inertText(`MCP servers in ${checked.file}\n${describeMcpServers(checked.servers).join('\n')}\n`));
    });
}
