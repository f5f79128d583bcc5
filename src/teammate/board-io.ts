import { LEAD, type TaskNotification } from '../protocol/index.js';
import { type TaskStore, transitionProblem, type Task, type TaskResult } from '../store/index.js';
import type { LeadBoardIO, TeammateBoardIO } from '../tools/index.js';
import type { HookVerdict } from '../hooks/index.js';
import { inertLine } from '../lib/index.js';

/** What a finished board task's notification says in one line. */
export function boardTaskSummary(task: Task, by: string): string {
  return `Task ${task.id} "${inertLine(task.subject)}" ${task.status === 'completed' ? 'completed' : 'failed'} (${by})`;
}

/**
 * The lead's board: every change made as the lead; assignments reach the teammate through the
 * lead's board watch (lead-board.ts). A task its model marks completed passes the project's
 * task_completed hooks first, as a teammate's does; refused, the tool says why.
 */
export function leadBoardIO(tasks: TaskStore, checkCompletion: (task: Task) => Promise<HookVerdict>): LeadBoardIO {
  return {
    list: (filter) => tasks.list(filter),
    async update(id, change) {
      const task = change.op === 'set' && change.status === 'completed' ? await tasks.get(id) : undefined;
      if (task !== undefined && task.status === 'in_progress') {
        const verdict = await checkCompletion({ ...task, ...(change.op === 'set' && change.result !== undefined ? { result: change.result } : {}) });
        if (verdict.blocked) return { ok: false, error: `task ${id} stays ${task.status}: the project's task_completed hook \`${verdict.command}\` refused it:\n${verdict.feedback}` };
      }
      return tasks.update(id, change, LEAD);
    },
    create: ({ subject, description, blocked_by, assign_to }) =>
      tasks.create({ subject, description, blocked_by, ...(assign_to === undefined ? {} : { owner: assign_to }) }, LEAD),
  };
}

/**
 * A teammate's board: it claims for itself and changes only its own tasks. A task it fails is
 * recorded at once and reported to the lead as a task_notification with the board's id, its
 * status and its result. A task it completes is only reported: the lead records the completion
 * once the project's task_completed hooks pass (lead-completion.ts), since hooks run only in
 * the lead's process, and no teammate's model may talk its way past them.
 */
export function teammateBoardIO(name: string, tasks: TaskStore, notifyLead: (notification: TaskNotification) => Promise<void>): TeammateBoardIO {
  const own = async (id: string): Promise<TaskResult> => {
    const task = await tasks.get(id);
    if (!task) return { ok: false, error: `unknown task ${id}` };
    if (task.owner !== name) return { ok: false, error: `task ${id} is ${task.owner === undefined ? 'nobody' : `${task.owner}`}'s, not yours: claim it first, or ask the lead` };
    return { ok: true, task };
  };
  return {
    list: (filter) => tasks.list(filter),
    claim: (id) => tasks.claim(name, id),
    async update(id, change): Promise<TaskResult> {
      if (change.op === 'set' && change.status === 'completed') return { ok: false, error: `a completion of task ${id} goes to the lead: report it with complete` };
      const found = await own(id);
      if (!found.ok) return found;
      // Its own still when the change lands, not only when it was looked at.
      const result = await tasks.update(id, change.op === 'set' ? { ...change, owned_by: name } : change, name);
      if (result.ok && result.task.status === 'failed' && found.task.status !== 'failed') {
        await notifyLead({ task_id: id, status: 'failed', summary: boardTaskSummary(result.task, name), result: result.task.result });
      }
      return result;
    },
    async complete(id, result): Promise<TaskResult> {
      const found = await own(id);
      if (!found.ok) return found;
      const problem = transitionProblem(found.task, 'completed');
      if (problem) return { ok: false, error: problem };
      await notifyLead({ task_id: id, status: 'completed', summary: boardTaskSummary({ ...found.task, status: 'completed' }, name), result });
      return found;
    },
  };
}

/**
 * A teammate is ending (`completed`: its work accepted; `stopped`: shut down): the board task
 * it was spawned with ends with it, completed with its last words, or back to pending and
 * still its own, for a respawn to give back (it closes the task itself with task_update when
 * its work is done, and then nothing changes here). False when the board says the lead already heard how that task ended (the
 * teammate finished it with task_update), so no second notification is due.
 */
export async function endSpawnTask(tasks: TaskStore, name: string, id: string, how: 'completed' | 'stopped', lastText: string): Promise<boolean> {
  const task = await tasks.get(id).catch(() => undefined);
  if (task === undefined) return true;
  if (task.status !== 'in_progress' || task.owner !== name) return !(task.status === 'completed' || task.status === 'failed');
  if (how === 'completed') await tasks.update(id, { op: 'set', status: 'completed', ...(lastText ? { result: lastText.slice(0, 20_000) } : {}) }, name);
  // Its own task, unfinished: kept for it, so that a respawn gives it back and nobody else takes its brief.
  else await tasks.update(id, { op: 'release', keep_owner: true, note: `${name} was shut down before closing it; back to pending, kept for ${name}` }, name);
  return true;
}
