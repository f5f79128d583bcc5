import { inertLine } from '../lib/index.js';
import type { Task, TaskResult } from '../store/index.js';
import type { ToolResult } from './tool.js';

/** One task as one line for a model (and the CLI): id, status, owner, what blocks it, subject. */
export function taskLine(task: Task): string {
  const owner = task.owner === undefined ? '' : ` @${task.owner}`;
  const blocked = task.blocked_by.length === 0 ? '' : ` blocked by ${task.blocked_by.join(', ')}`;
  // One line whatever the subject holds: one written before subjects were checked may hold a newline.
  return `#${task.id} [${task.status}]${owner}${blocked}: ${inertLine(task.subject)}`;
}

/** A task in full: its line, description, result and notes. */
export function taskDetail(task: Task): string {
  const lines = [taskLine(task)];
  if (task.description !== '') lines.push(`  ${task.description.replace(/\n/g, '\n  ')}`);
  if (task.result !== undefined) lines.push(`  result: ${task.result}`);
  for (const note of task.notes ?? []) lines.push(`  note (${note.by}): ${note.text}`);
  return lines.join('\n');
}

/** A board change as a tool's answer: the task as it now is, or the refusal as an error the model can act on. */
export function boardAnswer(result: TaskResult, what: string): ToolResult {
  if (!result.ok) return { content: result.error, isError: true };
  return { content: `${what}:\n${taskDetail(result.task)}` };
}
