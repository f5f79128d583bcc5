import type { Command } from 'commander';
import { agentNameProblem } from '../../protocol/names.js';
import { modelIdProblem } from '../../model/settings.js';
import { askLead, noLead } from '../lead-client.js';
import { UsageError } from '../errors.js';
import { inertText } from '../../lib/terminal-text.js';
import type { ContextFor } from '../context.js';

export function registerLifecycleCommands(program: Command, contextFor: ContextFor): void {
  program
    .command('spawn <name>')
    .description('start a teammate process (the running lead supervises it)')
    .requiredOption('--role <role>', "the teammate's role")
    .option('--prompt <text>', 'its task')
    .option('--plan-mode', 'read-only until its plan is approved')
    .option('--model <id>', "its own model (default: the lead's; offline, every agent is the offline model)")
    .action(async (name: string, options: { role: string; prompt?: string; planMode?: boolean; model?: string }, command: Command) => {
      const problem = agentNameProblem(name) ?? (options.model === undefined ? undefined : modelIdProblem(options.model));
      if (problem) throw new UsageError(problem);
      const context = contextFor(command);
      const message = await askLead(context, { op: 'spawn', name, role: options.role, prompt: options.prompt, plan_mode: options.planMode, model: options.model });
      if (message === undefined) noLead(context, 'spawning a teammate');
      process.stdout.write(`${inertText(message)}\n`);
    });

  program
    .command('respawn <name>')
    .description('start a teammate that crashed or was shut down again, with its conversation (the running lead does it)')
    .action(async (name: string, _options: unknown, command: Command) => {
      const problem = agentNameProblem(name);
      if (problem) throw new UsageError(problem);
      const context = contextFor(command);
      const message = await askLead(context, { op: 'respawn', name });
      if (message === undefined) noLead(context, 'respawning a teammate');
      process.stdout.write(`${inertText(message)}\n`);
    });

  program
    .command('shutdown <name>')
    .description('ask a teammate to shut down (the shutdown handshake)')
    .option('--reason <text>', 'why')
    .action(async (name: string, options: { reason?: string }, command: Command) => {
      const context = contextFor(command);
      const message = await askLead(context, { op: 'shutdown', name, reason: options.reason });
      if (message === undefined) noLead(context, 'a shutdown');
      process.stdout.write(`${inertText(message)}\n`);
    });
}
