import type { Command } from 'commander';
import { formatMembers, formatRequests, formatWorktrees } from '../../present/index.js';
import type { ContextFor } from '../context.js';
import { inertJson } from '../../lib/index.js';
import { leftoverWorktrees } from '../../worktree/index.js';

export function registerStatusCommand(program: Command, contextFor: ContextFor): void {
  program
    .command('status')
    .description('members with role, status and pid, and the pending requests')
    .option('--json', 'one JSON object')
    .action(async (options: { json?: boolean }, command: Command) => {
      const context = contextFor(command);
      const team = await context.requireTeam();
      const pending = await context.store.requests.list({ state: 'pending' });
      const worktrees = await leftoverWorktrees(context.paths, team.members);
      if (options.json) {
        process.stdout.write(`${inertJson({ team: team.name, sandbox: team.sandbox ?? null, members: team.members, pending, worktrees })}\n`);
        return;
      }
      process.stdout.write(`team ${team.name} (${context.paths.root})\n`);
      // As the last lead to start found it: with no sandbox, approvals do not bind, and that is said first.
      if (team.sandbox) process.stdout.write(`commands: ${team.sandbox}\n`);
      process.stdout.write(`\n${formatMembers(team.members)}\n\n`);
      process.stdout.write(pending.length === 0 ? 'no pending requests\n' : `pending requests:\n${formatRequests(pending)}\n`);
      // Teammates' worktrees still on disk: their branches to merge or discard, or for teams gc.
      if (worktrees.length > 0) process.stdout.write(`\nworktrees:\n${formatWorktrees(worktrees)}\n`);
    });
}
