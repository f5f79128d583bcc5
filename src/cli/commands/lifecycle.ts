import type { Command } from 'commander';
import { agentNameProblem, PERMISSION_MODES, PermissionMode } from '../../protocol/index.js';
import { modelIdProblem } from '../../model/index.js';
import { askLead, noLead } from '../lead-client.js';
import { UsageError } from '../errors.js';
import { inertText } from '../../lib/index.js';
import type { ContextFor } from '../context.js';

export function registerLifecycleCommands(program: Command, contextFor: ContextFor): void {
  program
    .command('spawn <name>')
    .description('start a teammate process (the running lead supervises it)')
    .option('--role <role>', "the teammate's role (required unless --agent)")
    .option('--agent <agent>', 'start it as an agent definition of the project (.teams/agents/<agent>.md; teams agents lists them)')
    .option('--prompt <text>', 'its task')
    .option('--plan-mode', 'read-only until its plan is approved')
    .option('--model <id>', "its own model (default: the lead's; offline, every agent is the offline model)")
    .option('--mode <mode>', `its permission mode (${PERMISSION_MODES.join(', ')}); yours to grant, even beyond the lead's own`)
    .option('--worktree', 'it works in its own git worktree and branch (teams diff/merge/discard)')
    .option('--host <host>', 'start it on another machine running `teams host` (see `teams hosts`)')
    .action(async (name: string, options: { role?: string; agent?: string; prompt?: string; planMode?: boolean; model?: string; mode?: string; worktree?: boolean; host?: string }, command: Command) => {
      if (options.role === undefined && options.agent === undefined) throw new UsageError('give --role, or --agent with an agent definition (teams agents lists them)');
      const problem = agentNameProblem(name) ?? (options.agent === undefined ? undefined : agentNameProblem(options.agent)) ?? (options.host === undefined ? undefined : agentNameProblem(options.host)) ?? (options.model === undefined ? undefined : modelIdProblem(options.model));
      if (problem) throw new UsageError(problem);
      const mode = options.mode === undefined ? undefined : modeArgument(options.mode);
      const context = contextFor(command);
      const message = await askLead(context, { op: 'spawn', name, role: options.role, agent: options.agent, prompt: options.prompt, plan_mode: options.planMode, model: options.model, mode, worktree: options.worktree, host: options.host });
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
    .command('mode <name> <mode>')
    .description(`change a running teammate's permission mode (${PERMISSION_MODES.join(', ')}): the lead sends it a signed mode_set`)
    .action(async (name: string, given: string, _options: unknown, command: Command) => {
      const problem = agentNameProblem(name);
      if (problem) throw new UsageError(problem);
      const mode = modeArgument(given);
      const context = contextFor(command);
      const message = await askLead(context, { op: 'mode', name, mode });
      if (message === undefined) noLead(context, "changing a teammate's mode");
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

function modeArgument(given: string): PermissionMode {
  const parsed = PermissionMode.safeParse(given);
  if (!parsed.success) throw new UsageError(`unknown permission mode '${inertText(given)}': use one of ${PERMISSION_MODES.join(', ')}`);
  return parsed.data;
}
