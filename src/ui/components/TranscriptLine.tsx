import { Box, Text } from 'ink';
import type { TranscriptItem } from '../state/types.js';

const SENDER_COLORS = ['cyan', 'magenta', 'blue', 'green', 'yellow', 'redBright', 'cyanBright', 'magentaBright'] as const;

/** A stable colour per sender, so one teammate's lines are easy to follow. */
export function senderColor(name: string): (typeof SENDER_COLORS)[number] {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return SENDER_COLORS[hash % SENDER_COLORS.length] ?? 'cyan';
}

/** One finished transcript item. Rendered once, inside <Static>. */
export function TranscriptLine({ item }: { item: TranscriptItem }) {
  switch (item.kind) {
    case 'user':
      return (
        <Box>
          <Text color="cyan" bold>{'› '}</Text>
          <Text>{item.text}</Text>
        </Box>
      );
    case 'lead':
      return (
        <Box>
          <Text color="magenta" bold>{'lead  '}</Text>
          <Text>
            {item.text}
            {item.interrupted ? <Text dimColor> (interrupted)</Text> : null}
          </Text>
        </Box>
      );
    case 'tool':
      return (
        <Text dimColor={!item.isError} color={item.isError ? 'red' : undefined} wrap="truncate-end">
          {'      ⚙ '}
          {item.name} {item.input} {item.isError ? '✗' : '→'} {item.result}
        </Text>
      );
    case 'message':
      return (
        <Box>
          <Text color={senderColor(item.from)} bold>{`[${item.from}] `}</Text>
          <Text dimColor={item.type === 'idle_notification'}>{item.text}</Text>
        </Box>
      );
    case 'info':
      return <Text dimColor>{`· ${item.text}`}</Text>;
    case 'output':
      return <Text>{item.text}</Text>;
    case 'error':
      return <Text color="red">{`✗ ${item.text}`}</Text>;
  }
}
