import { quoted } from '../lib/index.js';
import { LEAD } from '../protocol/index.js';
import { TaskId } from './tasks.js';

/**
 * What a person types for the task board, checked the same way wherever it is typed (`teams
 * task` on the command line, /task in the REPL), so both say the same thing about the same
 * mistake. The board's own rules (unknown blockers, cycles, transitions) stay in the store.
 */

/** Why `value` is not a task id, or undefined when it is one; `listedBy` is where the ids can be seen. */
export function taskIdProblem(value: string, listedBy: string): string | undefined {
  return TaskId.safeParse(value).success ? undefined : `${quoted(value)} is not a task id (a number such as 7; see ${listedBy})`;
}

export type TaskIdList = { ok: true; ids: string[] } | { ok: false; error: string };

/** A comma-separated list of task ids as typed (`1,2`; blanks around the commas are fine): the ids, or the first bad one. */
export function parseTaskIdList(value: string, listedBy: string): TaskIdList {
  const ids = value.split(',').map((id) => id.trim()).filter((id) => id !== '');
  for (const id of ids) {
    const problem = taskIdProblem(id, listedBy);
    if (problem) return { ok: false, error: problem };
  }
  return { ok: true, ids };
}

export const EMPTY_SUBJECT = 'the subject is empty';

/** Who the board records for a change a person typed, in the REPL or on the command line: not the lead's model. */
export const HUMAN_ACTOR = 'human';

/** Why `name` cannot be given a task, before the roster is asked: the board's work is the teammates'. */
export function assigneeProblem(name: string): string | undefined {
  return name === LEAD ? 'tasks are assigned to teammates, not to the lead' : undefined;
}
