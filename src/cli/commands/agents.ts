import type { Command } from 'commander';
import { inertJson, inertText } from '../../lib/index.js';
import { agentsDir, loadAgentDefinitions, type AgentDefinition } from '../../agent/index.js';
import type { ContextFor } from '../context.js';

/**
 * `teams agents`: the project's agent definitions (<home>/agents/<name>.md), the roles the lead
 * can spawn a teammate as (`spawn_teammate` with agent, `/spawn --agent`, `teams spawn --agent`).
 * A file that cannot be used is named with why, and makes the command exit 1: it would be
 * refused at a spawn too.
 */
export function registerAgentsCommand(program: Command, contextFor: ContextFor): void {
  program
    .command('agents')
    .description('list the agent definitions a teammate can be spawned as (<home>/agents/<name>.md)')
    .option('--json', 'one JSON object')
    .action((options: { json?: boolean }, command: Command) => {
      const { home } = contextFor(command).paths;
      const { definitions, problems } = loadAgentDefinitions(home);
      if (options.json) process.stdout.write(`${inertJson({ dir: agentsDir(home), agents: definitions.map(asJson), problems })}\n`);
      else process.stdout.write(inertText(listing(agentsDir(home), definitions)));
      for (const problem of problems) process.stderr.write(inertText(`teams: ${problem}\n`));
      if (problems.length > 0) throw new Error(`${problems.length} agent definition${problems.length === 1 ? '' : 's'} cannot be used (said above)`);
    });
}

function asJson(definition: AgentDefinition) {
  const { name, description, tools, model, permissionMode, isolation, file } = definition;
  return { name, description, tools: tools ?? null, model: model ?? null, permission_mode: permissionMode ?? null, isolation: isolation ?? 'none', file };
}

function listing(dir: string, definitions: readonly AgentDefinition[]): string {
  if (definitions.length === 0) return `no agent definitions in ${dir} (write <name>.md there: front matter with name and description, then the role's prompt)\n`;
  return definitions
    .map((d) => {
      const details = [
        `tools: ${d.tools === undefined ? 'all' : d.tools.join(', ') || 'none besides the team\'s own'}`,
        `model: ${d.model ?? "the lead's"}`,
        `mode: ${d.permissionMode ?? "the lead's"}`,
        ...(d.isolation === 'worktree' ? ['isolation: worktree'] : []),
      ];
      return `${d.name}  ${d.description}\n  ${details.join(' · ')}\n  ${d.file}\n`;
    })
    .join('');
}
