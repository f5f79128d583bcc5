import { Box, Text } from 'ink';
import { memo } from 'react';
import { age } from '../../cli/format.js';
import type { RequestRecord } from '../../tracker/records.js';
import { countdown, oneLine } from '../format.js';
import type { Focus, LineState } from '../state/types.js';
import { Line } from './Line.js';

export type ApprovalQueueProps = {
  queue: RequestRecord[];
  selected: number;
  expanded: boolean;
  deciding: string[];
  focus: Focus;
  reason: (LineState & { requestId: string }) | undefined;
  now: number;
};

const KEYS_FOCUSED = '↑↓ select · y approve · n reject · v view · a always (permission) · Esc back';

function Row({ request, isSelected, focused, deciding, now }: { request: RequestRecord; isSelected: boolean; focused: boolean; deciding: boolean; now: number }) {
  const highlight = isSelected && focused;
  return (
    <Text wrap="truncate-end" inverse={highlight}>
      <Text>{highlight ? '› ' : '  '}</Text>
      <Text color="yellow" bold>{request.kind.padEnd(11)}</Text>
      <Text bold>{request.from.padEnd(10)} </Text>
      <Text dimColor>{`${age(request.created_at, now)} ago`.padEnd(8)}</Text>
      <Text color="yellow">{`⏳ ${countdown(request.deadline_at, now)}`.padEnd(9)}</Text>
      <Text>{deciding ? 'deciding… ' : ''}</Text>
      {/* Cut by the terminal's width; `v` shows all of it, with the request id. */}
      <Text>{oneLine(request.summary, 300)}</Text>
    </Text>
  );
}

/** Every request waiting on the human, oldest first; Tab focuses it, and its keys decide. */
export const ApprovalQueue = memo(function ApprovalQueue({ queue, selected, expanded, deciding, focus, reason, now }: ApprovalQueueProps) {
  const focused = focus === 'queue' || focus === 'reason';
  if (queue.length === 0 && !focused) return null;
  const current = queue[selected];
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={focused ? 'yellow' : 'gray'} paddingX={1}>
      <Text>
        <Text bold color="yellow">{`Approvals (${queue.length})`}</Text>
        <Text dimColor>{focused ? `  ${KEYS_FOCUSED}` : '  Tab to review'}</Text>
      </Text>
      {queue.length === 0 ? <Text dimColor>Nothing is waiting. Esc returns to the input line.</Text> : null}
      {queue.map((request, i) => (
        <Row key={request.request_id} request={request} isSelected={i === selected} focused={focused} deciding={deciding.includes(request.request_id)} now={now} />
      ))}
      {expanded && current ? (
        <Box flexDirection="column" marginLeft={2} marginTop={1}>
          <Text dimColor>{`${current.kind} request ${current.request_id} from ${current.from}:`}</Text>
          <Text>{current.summary}</Text>
        </Box>
      ) : null}
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
