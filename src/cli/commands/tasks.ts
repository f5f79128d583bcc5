import type { Command } from 'commander';
import { inertJson, inertLine, inertText, errorMessage } from '../../lib/index.js';
import { TaskBoardStatus, type TaskChange, assigneeProblem, EMPTY_SUBJECT, HUMAN_ACTOR, parseTaskIdList, taskIdProblem } from '../../store/index.js';
import { taskDetail, taskLine } from '../../tools/index.js';
import type { CliContext, ContextFor } from '../context.js';
import { UsageError } from '../errors.js';

/** The human, as the board records who made a change from the command line. */

/** Where a human sees the board's ids from the command line. */
const LISTED_BY = '`teams tasks`';

function taskId(value: string): string {
  const problem = taskIdProblem(value, LISTED_BY);
  if (problem) throw new UsageError(problem);
  return value;
}

/** A comma-separated list of task ids, each checked. */
function taskIds(value: string): string[] {
  const list = parseTaskIdList(value, LISTED_BY);
  if (!list.ok) throw new UsageError(list.error);
  return list.ids;
}

/** A teammate on the roster (never the lead: the board's work is the teammates'). */
async function assignee(context: CliContext, name: string): Promise<string> {
  const problem = assigneeProblem(name);
  if (problem) throw new UsageError(problem);
  return context.requireAgent(name);
}

/** A change, as the rules allow it; a refusal is a validation error (exit 2): nothing was written. */
async function change(context: CliContext, id: string, what: TaskChange, done: string): Promise<void> {
  await context.requireTeam();
  const result = await context.store.tasks.update(id, what, HUMAN_ACTOR);
  if (!result.ok) throw new UsageError(result.error);
  process.stdout.write(`${inertLine(done)}\n${inertText(taskLine(result.task))}\n`);
}

export function registerTaskCommands(program: Command, contextFor: ContextFor): void {
  program
    .command('tasks')
    .description("the team's task board: each task's status, owner and what blocks it")
    .option('--json', 'one JSON array of the tasks, whole')
    .option('--status <status>', `only tasks in this status (${TaskBoardStatus.options.join(', ')})`)
    .action(async (options: { json?: boolean; status?: string }, command: Command) => {
      const status = options.status === undefined ? undefined : TaskBoardStatus.safeParse(options.status);
      if (status && !status.success) throw new UsageError(`--status '${inertLine(options.status ?? '')}' is not a task status (${TaskBoardStatus.options.join(', ')})`);
      const context = contextFor(command);
      await context.requireTeam();
      const tasks = await context.store.tasks.list(status ? { status: status.data } : {});
      if (options.json) process.stdout.write(`${inertJson(tasks)}\n`);
      else if (tasks.length === 0) process.stdout.write(status ? `no ${status.data} task on the board\n` : 'the task board is empty\n');
      else process.stdout.write(`${tasks.map((task) => inertText(taskDetail(task))).join('\n')}\n`);
      // What the board could not read is said, never fatal: the board above is what it could.
      for (const problem of await context.store.tasks.problems()) process.stderr.write(`teams: task board ${inertLine(problem.ref)}: ${inertLine(problem.reason)}\n`);
    });

  const task = program.command('task').description('put a task on the board, assign it, or cancel it');

  task
    .command('add <subject>')
    .description('put a pending task on the board')
    .option('--description <text>', 'what the task is, for whoever takes it', '')
    .option('--blocked-by <ids>', 'comma-separated ids of tasks that must finish first')
    .option('--assign <name>', 'the teammate who is to do it')
    .action(async (subject: string, options: { description: string; blockedBy?: string; assign?: string }, command: Command) => {
      if (subject.trim() === '') throw new UsageError(EMPTY_SUBJECT);
      const blocked_by = options.blockedBy === undefined ? [] : taskIds(options.blockedBy);
      const context = contextFor(command);
      await context.requireTeam();
      const owner = options.assign === undefined ? undefined : await assignee(context, options.assign);
      let created;
      try {
        created = await context.store.tasks.create({ subject, description: options.description, blocked_by, ...(owner ? { owner } : {}) }, HUMAN_ACTOR);
      } catch (error) {
        // The board checks before it writes: a refusal wrote nothing.
        throw new UsageError(errorMessage(error));
      }
      process.stdout.write(`added task ${created.id}\n${inertText(taskLine(created))}\n`);
    });

  task
    .command('assign <id> <name>')
    .description('assign a pending task to a teammate (a running lead sends it the task)')
    .action(async (id: string, name: string, _options: unknown, command: Command) => {
      const context = contextFor(command);
      const checked = taskId(id);
      await change(context, checked, { op: 'set', owner: await assignee(context, name) }, `assigned task ${checked} to ${name}`);
    });

  task
    .command('cancel <id>')
    .description('cancel a task that is not finished')
    .action(async (id: string, _options: unknown, command: Command) => {
      const checked = taskId(id);
      await change(contextFor(command), checked, { op: 'set', status: 'cancelled', note: 'cancelled from the command line' }, `cancelled task ${checked}`);
    });
}
