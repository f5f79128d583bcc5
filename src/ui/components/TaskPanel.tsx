import { Box } from 'ink';
import { memo } from 'react';
import { Text } from './Text.js';
import { oneLine } from '../../lib/index.js';
import type { Task } from '../../store/index.js';

const STATUS_COLORS: Partial<Record<Task['status'], string>> = { in_progress: 'green', completed: 'cyan', failed: 'red', cancelled: 'gray' };

/** Rows the panel takes at most: the live area must stay shorter than the screen. */
const MAX_ROWS = 10;

/**
 * The task board (Ctrl+T): each task's id, status, owner, what blocks it and its subject. The
 * unfinished ones first, in id order, since those are what the team works on.
 */
export const TaskPanel = memo(function TaskPanel({ tasks }: { tasks: Task[] }) {
  const open = tasks.filter((t) => t.status === 'pending' || t.status === 'in_progress');
  const done = tasks.filter((t) => !open.includes(t));
  const ordered = [...open, ...done];
  const shown = ordered.slice(0, MAX_ROWS);
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>
        Tasks ({open.length} open, {done.length} done) <Text dimColor>Ctrl+T hides</Text>
      </Text>
      {tasks.length === 0 ? <Text dimColor>The board is empty: /task add, or ask the lead to split the work.</Text> : null}
      {shown.map((task) => (
        <Text key={task.id} wrap="truncate-end">
          <Text bold>{`#${task.id}`.padEnd(5)}</Text>
          <Text color={STATUS_COLORS[task.status]} dimColor={STATUS_COLORS[task.status] === undefined}>{task.status.padEnd(12)}</Text>
          <Text>{oneLine(task.owner ?? '-', 16).padEnd(17)}</Text>
          {task.blocked_by.length > 0 ? <Text color="yellow">{`blocked by ${task.blocked_by.join(',')}  `}</Text> : null}
          <Text>{oneLine(task.subject, 80)}</Text>
        </Text>
      ))}
      {ordered.length > shown.length ? <Text dimColor>{`… ${ordered.length - shown.length} more: /tasks lists them all`}</Text> : null}
    </Box>
  );
});
