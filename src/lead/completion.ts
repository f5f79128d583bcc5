import type { TaskStore, Task } from '../store/index.js';

/** A teammate's report that it completed a task: a task_notification it sent, as the lead received it. */
export type CompletionReport = { from: string; task_id: string; result?: string | undefined };

/**
 * What became of the report. `recorded`: the board now says completed. `blocked`: a hook
 * refused it; the task stays in progress and the teammate was sent why. `as_is`: not a
 * completion this lead records (no board task by that id, not the sender's, or no longer in
 * progress), so the notification is only passed on. `failed`: the board refused the change.
 */
export type CompletionOutcome = { kind: 'recorded'; task: Task } | { kind: 'blocked' } | { kind: 'as_is' } | { kind: 'failed'; error: string };

/**
 * The lead's half of a completion: the project's task_completed checks run on the task the
 * board holds (the sender's, in progress), and only when they pass is `completed` recorded, in
 * the teammate's name. The sender is who signed the message, so no teammate completes another's.
 */
export async function settleCompletion(report: CompletionReport, tasks: TaskStore, check: (task: Task, owner: string) => Promise<{ blocked: boolean }>): Promise<CompletionOutcome> {
  const task = await tasks.get(report.task_id).catch(() => undefined);
  if (task === undefined || task.owner !== report.from || task.status !== 'in_progress') return { kind: 'as_is' };
  const verdict = await check(task, report.from);
  if (verdict.blocked) return { kind: 'blocked' };
  const completed = { op: 'set' as const, status: 'completed' as const, owned_by: report.from, ...(report.result === undefined ? {} : { result: report.result.slice(0, 20_000) }) };
  let recorded = await tasks.update(task.id, completed, report.from);
  // Its process ended while the hooks ran (shut down meanwhile), which put the task back to
  // pending: the work it reported passed them, so it is its own again, and completed, unless
  // another teammate has claimed it since.
  if (!recorded.ok && (await tasks.get(task.id))?.status === 'pending') {
    const taken = await tasks.claim(report.from, task.id);
    if (taken.ok) recorded = await tasks.update(task.id, completed, report.from);
  }
  return recorded.ok ? { kind: 'recorded', task: recorded.task } : { kind: 'failed', error: recorded.error };
}
