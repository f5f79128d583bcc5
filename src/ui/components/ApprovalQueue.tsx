import { Box, useStdout } from 'ink';
import { Text } from './Text.js';
import { memo } from 'react';
import { age, type PreviewKind, type PreviewLine } from '../../present/index.js';
import type { RequestRecord } from '../../protocol/index.js';
import { countdown, EXPANDED_ROWS, firstRows, PREVIEW_ROWS } from '../format.js';
import { inertText, oneLine } from '../../lib/index.js';
import type { Focus, LineState, RuleInputState } from '../state/types.js';
import { Line } from './Line.js';
import { callRow } from '../call-row.js';
import { RuleInput } from './RuleInput.js';

export type ApprovalQueueProps = {
  queue: RequestRecord[];
  selected: number;
  expanded: boolean;
  deciding: string[];
  focus: Focus;
  reason: (LineState & { requestId: string }) | undefined;
  /** The choice and rule input opened by `a`. */
  rule?: RuleInputState | undefined;
  /** The expanded permission request's preview, once read. */
  preview?: { requestId: string; lines: PreviewLine[] } | undefined;
  now: number;
};

const COLOURS: Record<PreviewKind, string | undefined> = { header: 'cyan', added: 'green', removed: 'red', note: 'yellow', context: undefined };

/** `v` on a permission request: what it will do, coloured by line kind; the lines are inert already (team/preview.ts). */
function PreviewBox({ request, preview }: { request: RequestRecord; preview: PreviewLine[] | undefined }) {
  const shown = preview?.slice(0, PREVIEW_ROWS);
  return (
    <Box flexDirection="column" marginLeft={2} marginTop={1}>
      <Text dimColor>{`${request.kind} request ${request.request_id} from ${request.from}, what it will do:`}</Text>
      {shown === undefined ? <Text dimColor>reading…</Text> : shown.map((line, i) => (
        <Text key={i} wrap="truncate-end" color={COLOURS[line.kind]}>{line.text}</Text>
      ))}
      {preview && preview.length > PREVIEW_ROWS ? <Text dimColor>{`… ${preview.length - PREVIEW_ROWS} more lines, printed in full above`}</Text> : null}
    </Box>
  );
}

const KEYS_FOCUSED = '↑↓ select · y approve · n reject · v view · a allow: this call or a rule · Esc back';

function Row({ request, isSelected, focused, deciding, now, columns }: { request: RequestRecord; isSelected: boolean; focused: boolean; deciding: boolean; now: number; columns: number }) {
  const highlight = isSelected && focused;
  const cells = (
    <Text wrap="truncate-end" inverse={highlight}>
      <Text>{highlight ? '› ' : '  '}</Text>
      <Text color="yellow" bold>{request.kind.padEnd(11)}</Text>
      <Text bold>{request.from.padEnd(10)} </Text>
      <Text dimColor>{`${age(request.created_at, now)} ago`.padEnd(8)}</Text>
      <Text color="yellow">{`⏳ ${countdown(request.deadline_at, now)}`.padEnd(9)}</Text>
      <Text>{deciding ? 'deciding… ' : ''}</Text>
      {/* Cut by the terminal's width; `v` shows all of it, with the request id. */}
      {request.tool ? null : <Text>{oneLine(request.summary, 300)}</Text>}
    </Text>
  );
  if (!request.tool) return cells;
  // A tool call cut to fit keeps its reason and its end, each cut in the middle (ink measures
  // the width as the terminal shows it), so a dangerous tail is never hidden without `v`.
  const call = callRow(request.tool);
  const reason = ` (${call.reason})`;
  // The reason takes at most 40% of the row; the command has the rest.
  const reasonMax = Math.floor(columns * 0.4);
  return (
    <Box>
      <Box flexShrink={0}>{cells}</Box>
      <Box flexShrink={1}>
        <Text wrap="truncate-middle" inverse={highlight}>{call.what}</Text>
      </Box>
      <Box flexShrink={0} width={Array.from(reason).length > reasonMax ? reasonMax : undefined}>
        <Text wrap="truncate-middle" inverse={highlight}>{reason}</Text>
      </Box>
    </Box>
  );
}

/** Rows of requests shown at once, around the selected one: the live area must stay shorter than the screen. */
const VISIBLE_ROWS = 5;

/** Every request waiting on the human, oldest first; Tab focuses it, and its keys decide. */
export const ApprovalQueue = memo(function ApprovalQueue({ queue, selected, expanded, deciding, focus, reason, rule, preview, now }: ApprovalQueueProps) {
  const { stdout } = useStdout();
  const focused = focus === 'queue' || focus === 'reason' || focus === 'rule';
  if (queue.length === 0 && !focused) return null;
  const current = queue[selected];
  const first = Math.max(0, Math.min(selected - Math.floor(VISIBLE_ROWS / 2), queue.length - VISIBLE_ROWS));
  const visible = queue.slice(first, first + VISIBLE_ROWS);
  const below = queue.length - first - visible.length;
  // Inside the border, the padding and the indent; measured once inert, as it is shown.
  const columns = stdout.columns || 80;
  const whole = current && firstRows(inertText(current.summary), EXPANDED_ROWS, columns - 6);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={focused ? 'yellow' : 'gray'} paddingX={1}>
      <Text>
        <Text bold color="yellow">{`Approvals (${queue.length})`}</Text>
        <Text dimColor>{focused ? `  ${KEYS_FOCUSED}` : '  Tab to review'}</Text>
      </Text>
      {queue.length === 0 ? <Text dimColor>Nothing is waiting. Esc returns to the input line.</Text> : null}
      {first > 0 ? <Text dimColor>{`  ↑ ${first} more`}</Text> : null}
      {visible.map((request, i) => (
        <Row key={request.request_id} request={request} isSelected={first + i === selected} focused={focused} deciding={deciding.includes(request.request_id)} now={now} columns={columns} />
      ))}
      {below > 0 ? <Text dimColor>{`  ↓ ${below} more`}</Text> : null}
      {expanded && current?.tool ? (
        <PreviewBox request={current} preview={preview?.requestId === current.request_id ? preview.lines : undefined} />
      ) : expanded && current && whole ? (
        <Box flexDirection="column" marginLeft={2} marginTop={1}>
          <Text dimColor>{`${current.kind} request ${current.request_id} from ${current.from}:`}</Text>
          <Text>{whole.text}</Text>
          {whole.cut ? <Text dimColor>… the rest is printed in full above</Text> : null}
        </Box>
      ) : null}
      {focus === 'rule' && rule ? <RuleInput rule={rule} /> : null}
      {focus === 'reason' && reason ? (
        <Box>
          <Text color="red">{`Reject ${reason.requestId}, reason: `}</Text>
          <Line line={reason} focused placeholder="why (the teammate reads it)" />
          <Text dimColor>  Enter rejects · Esc cancels</Text>
        </Box>
      ) : null}
    </Box>
  );
});
