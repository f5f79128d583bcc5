import { Box } from 'ink';
import { Text } from './Text.js';
import { memo } from 'react';
import { age } from '../../present/index.js';
import type { Member, Task } from '../../store/index.js';
import { inertLine, oneLine } from '../../lib/index.js';
import type { PermissionMode } from '../../protocol/index.js';
import { senderColor } from './TranscriptLine.js';

const STATUS_COLORS: Partial<Record<Member['status'], string>> = {
  working: 'green',
  starting: 'cyan',
  awaiting_approval: 'yellow',
  shutting_down: 'yellow',
  crashed: 'red',
};

export type TeamPanelProps = {
  members: Member[];
  activity: Record<string, string>;
  pending: Map<string, number>;
  /** Each member's board tasks in progress (src/ui/state/selectors.ts currentTasks). */
  current: Map<string, Task[]>;
  now: number;
  /** The agent whose session the main pane shows: its name in reverse video, so the panel says who is being watched. */
  view: string;
};

/** A column cell: inert before it is measured, so an escaped role still lines up. */
const pad = (raw: string, width: number) => {
  const text = inertLine(raw);
  return text.length > width ? `${text.slice(0, width - 1)}… ` : text.padEnd(width + 1);
};

const MODE_COLORS: Partial<Record<PermissionMode, string>> = { plan: 'cyan', 'accept-edits': 'yellow', bypass: 'red' };

/** Rows the panel takes at most: the live area must stay shorter than the screen. */
const MAX_ROWS = 12;

/** The widest the current-task column gets: what the member last did still needs room. */
const TASK_WIDTH = 36;

/** A member's tasks in progress: the first by id and subject, any others by id ("#2 Test it +#5"). */
function taskCell(tasks: readonly Task[] | undefined): string {
  const [first, ...others] = tasks ?? [];
  if (!first) return '';
  const head = `#${first.id} `;
  const more = others.map((task) => ` +#${task.id}`).join('');
  // The subject gives way first, so the ids all stay in sight.
  return `${head}${oneLine(first.subject, Math.max(2, TASK_WIDTH - head.length - more.length))}${more}`;
}

/** One line per member: name, role, model, status, time in state, its task in progress, its pending requests, what it last did. */
export const TeamPanel = memo(function TeamPanel({ members: all, activity, pending, current, now, view }: TeamPanelProps) {
  const members = all.length > MAX_ROWS ? all.slice(0, MAX_ROWS - 1) : all;
  const nameWidth = Math.max(4, ...members.map((m) => m.name.length));
  const roleWidth = Math.min(14, Math.max(4, ...members.map((m) => inertLine(m.role).length)));
  // Each member's own model (teammates may run another than the lead's); '-' until it is known.
  const modelWidth = Math.min(20, Math.max(1, ...members.map((m) => inertLine(m.model ?? '-').length)));
  // The column is there only while someone has a task in progress.
  const taskWidth = Math.min(TASK_WIDTH, Math.max(0, ...members.map((m) => taskCell(current.get(m.name)).length)));
  // Where each runs, only once a member runs on another machine ('-': the lead's), so a one-machine team looks as it did.
  const hostWidth = members.some((m) => m.host !== undefined) ? Math.min(16, Math.max(1, ...members.map((m) => (m.host ?? '-').length))) : 0;
  return (
    <Box flexDirection="column">
      {all.length <= 1 ? <Text dimColor>No teammates yet: ask the lead, or /spawn {'<name> <role>'}.</Text> : null}
      {members.map((m) => {
        const waiting = pending.get(m.name) ?? 0;
        return (
          <Text key={m.name} wrap="truncate-end">
            <Text color={senderColor(m.name)} bold inverse={m.name === view}>{pad(m.name, nameWidth)}</Text>
            <Text dimColor>{pad(m.role, roleWidth)}</Text>
            <Text dimColor>{pad(m.model ?? '-', modelWidth)}</Text>
            {hostWidth > 0 ? <Text color={m.host === undefined ? undefined : 'blue'} dimColor={m.host === undefined}>{pad(m.host ?? '-', hostWidth)}</Text> : null}
            {/* Its permission mode: a teammate with more room than the default stands out. */}
            {m.permission_mode ? <Text color={MODE_COLORS[m.permission_mode]} dimColor={MODE_COLORS[m.permission_mode] === undefined}>{pad(m.permission_mode, 13)}</Text> : null}
            <Text color={STATUS_COLORS[m.status]} dimColor={STATUS_COLORS[m.status] === undefined}>{pad(m.status, 17)}</Text>
            {/* A change stamped after the last tick is "0s", not "in 0s". */}
            <Text dimColor>{pad(age(m.status_since, Math.max(now, Date.parse(m.status_since))), 4)}</Text>
            {taskWidth > 0 ? <Text color="magenta">{pad(taskCell(current.get(m.name)), taskWidth)}</Text> : null}
            {waiting > 0 ? <Text color="yellow">{`${waiting} pending  `}</Text> : null}
            <Text>{oneLine(activity[m.name] ?? '', 60)}</Text>
          </Text>
        );
      })}
      {members.length < all.length ? <Text dimColor>{`… ${all.length - members.length} more: /team lists them all`}</Text> : null}
    </Box>
  );
});
