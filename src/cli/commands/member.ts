import type { Command } from 'commander';
import { hostLiveness } from '../../host/index.js';
import { agentNameProblem } from '../../protocol/index.js';
import { addMember, removeMember, HUMAN_ACTOR } from '../../store/index.js';
import { UsageError } from '../errors.js';
import { inertLine } from '../../lib/index.js';
import type { CliContext, ContextFor } from '../context.js';
import { describeSettled, settleWorktree } from '../../worktree/index.js';

/**
 * A member taken off the roster holds no task: nobody else could claim one it held. Its tasks in
 * progress go back to pending, unowned, and its assigned pending ones are unassigned, each with a
 * note. What was done, a line per task, audited too.
 */
async function freeTasksOf(context: CliContext, name: string): Promise<string[]> {
  const { tasks, audit } = context.store;
  const lines: string[] = [];
  for (const task of await tasks.releaseAllOf(name, `${name} was removed from the team; back to pending`, HUMAN_ACTOR)) {
    lines.push(`task ${task.id} was in progress with ${name}: back to pending, unowned`);
  }
  for (const task of await tasks.list({ status: 'pending', owner: name })) {
    // owned_by: a change of hands since the list is left alone.
    const result = await tasks.update(task.id, { op: 'set', owner: null, owned_by: name, note: `${name} was removed from the team; unassigned` }, HUMAN_ACTOR);
    if (result.ok) lines.push(`task ${task.id} was assigned to ${name}: unassigned`);
  }
  if (lines.length > 0) await audit.append({ event: 'member', name, change: `its tasks freed: ${lines.join('; ')}` });
  return lines;
}

export function registerMemberCommands(program: Command, contextFor: ContextFor): void {
  const member = program.command('member').description('put members on the roster, or take them off, without starting a process');

  member
    .command('add <name>')
    .description('add a member to the team (creates the team if needed)')
    .requiredOption('--role <role>', "the member's role, e.g. coder or reviewer")
    .action(async (name: string, options: { role: string }, command: Command) => {
      const problem = agentNameProblem(name);
      if (problem) throw new UsageError(problem);
      if (options.role.trim() === '') throw new UsageError('--role is empty');
      const context = contextFor(command);
      const { store } = context;
      await store.roster.ensure();
      await addMember(store.roster, { name, role: options.role.trim() });
      await store.audit.append({ event: 'member', name, change: `added (role ${options.role.trim()})` });
      process.stdout.write(`added ${name} (${inertLine(options.role.trim())}) to team ${context.paths.team}\n`);
    });

  member
    .command('remove <name>')
    .description('take a member off the roster; its pending requests are cancelled, its tasks freed, its mailbox and log deleted')
    .action(async (name: string, _options: unknown, command: Command) => {
      const context = contextFor(command);
      await context.requireTeam();
      // A member on a host is running while its host's signed beat is fresh: its pid means nothing here.
      const removed = await removeMember(context.store.roster, name, await hostLiveness(context.store, context.paths));
      await context.bus.cancelPending(name, `${name} was removed from the team`);
      // Its mailbox and log go too: a member added later under the name starts with nothing of its.
      await context.store.deleteMember(name);
      await context.store.audit.append({ event: 'member', name, change: 'removed' });
      process.stdout.write(`removed ${name} from team ${context.paths.team}\n`);
      for (const line of await freeTasksOf(context, name)) process.stdout.write(`${line}\n`);
      // Its worktree goes too, unless its branch holds work not merged: that is kept, and said.
      const settled = removed.worktree && (await settleWorktree(removed.worktree, name));
      if (removed.worktree && settled) {
        const text = describeSettled(name, removed.worktree, settled);
        await context.store.audit.append({ event: 'member', name, change: text });
        process.stdout.write(`${text}\n`);
      }
    });
}
