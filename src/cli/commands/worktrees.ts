import type { Command } from 'commander';
import { agentNameProblem } from '../../protocol/index.js';
import { inertText } from '../../lib/index.js';
import { aliveMembers } from '../../store/index.js';
import { worktreeAction, type WorktreeAction, collectWorktrees } from '../../worktree/index.js';
import { UsageError } from '../errors.js';
import type { ContextFor } from '../context.js';

const ACTIONS: readonly { action: WorktreeAction; what: string }[] = [
  { action: 'diff', what: "what a teammate changed in its worktree since it started, committed or not" },
  { action: 'merge', what: "merge a stopped teammate's branch into the current branch (a conflict merges nothing)" },
  { action: 'discard', what: "throw a stopped teammate's work away: its worktree and branch" },
];

/** `teams diff|merge|discard <name>` and `teams gc`: a teammate's worktree, from the command line. */
export function registerWorktreeCommands(program: Command, contextFor: ContextFor): void {
  for (const { action, what } of ACTIONS) {
    program
      .command(`${action} <name>`)
      .description(what)
      .action(async (name: string, _options: unknown, command: Command) => {
        const problem = agentNameProblem(name);
        if (problem) throw new UsageError(problem);
        const context = contextFor(command);
        await context.requireTeam();
        // A diff holds whatever the teammate wrote: shown inert on a terminal.
        process.stdout.write(`${inertText(await worktreeAction(context.store, name, action, context.paths))}\n`);
      });
  }

  program
    .command('gc')
    .description("remove teammates' leftover worktrees whose branches are merged; say which are kept and why")
    .action(async (_options: unknown, command: Command) => {
      const context = contextFor(command);
      const team = await context.requireTeam();
      const running = aliveMembers(team.members);
      const { removed, kept } = await collectWorktrees(context.paths, running, team.members);
      for (const name of removed) await context.store.audit.append({ event: 'member', name, change: 'worktree removed by teams gc (merged)' });
      const lines = [
        removed.length === 0 ? 'no worktree removed' : `removed: ${removed.join(', ')}`,
        ...kept.map((why) => `kept ${why}`),
      ];
      process.stdout.write(`${inertText(lines.join('\n'))}\n`);
    });
}
