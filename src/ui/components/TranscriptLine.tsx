import { Box } from 'ink';
import { Text } from './Text.js';
import type { TranscriptItem } from '../state/types.js';

const SENDER_COLORS = ['cyan', 'magenta', 'blue', 'green', 'yellow', 'redBright', 'cyanBright', 'magentaBright'] as const;

/** A stable colour per sender, so one teammate's lines are easy to follow. */
export function senderColor(name: string): (typeof SENDER_COLORS)[number] {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return SENDER_COLORS[hash % SENDER_COLORS.length] ?? 'cyan';
}

/**
 * Who speaks, in a column of its own: the text beside it wraps under itself, and the space
 * after the label survives (a trailing space inside a shrinking Text does not).
 */
export function Label({ color, width, children }: { color: string; width?: number; children: string }) {
  return (
    <Box flexShrink={0} marginRight={1} width={width}>
      <Text color={color} bold>
        {children}
      </Text>
    </Box>
  );
}

/** One finished transcript item. Rendered once, inside <Static>; `detailed` (Ctrl+O) shows tool results whole. */
export function TranscriptLine({ item, detailed = false }: { item: TranscriptItem; detailed?: boolean }) {
  switch (item.kind) {
    case 'user':
      return (
        <Box>
          <Label color="cyan">›</Label>
          <Text>{item.text}</Text>
        </Box>
      );
    case 'lead':
      return (
        <Box>
          <Label color="magenta" width={5}>
            lead
          </Label>
          <Text>
            {item.text}
            {item.interrupted ? <Text dimColor> (interrupted)</Text> : null}
          </Text>
        </Box>
      );
    case 'said':
      return (
        <Box>
          <Label color={senderColor(item.from)}>{item.from}</Label>
          <Text>{item.text}</Text>
        </Box>
      );
    case 'notice':
      return (
        <Box>
          <Label color="gray">↳</Label>
          <Text dimColor>{item.text}</Text>
        </Box>
      );
    case 'tool':
      if (detailed && item.detail !== undefined)
        return (
          <Box flexDirection="column">
            <Text dimColor={!item.isError} color={item.isError ? 'red' : undefined} wrap="truncate-end">
              {'      ⚙ '}
              {item.name} {item.input} {item.isError ? '✗' : '→'}
            </Text>
            <Box marginLeft={8}>
              <Text dimColor>{item.detail}</Text>
            </Box>
          </Box>
        );
      return (
        <Text dimColor={!item.isError} color={item.isError ? 'red' : undefined} wrap="truncate-end">
          {'      ⚙ '}
          {item.name} {item.input} {item.isError ? '✗' : '→'} {item.result}
        </Text>
      );
    case 'message':
      return (
        <Box>
          <Label color={senderColor(item.from)}>{`[${item.from}]`}</Label>
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
