import { Box } from 'ink';
import { memo } from 'react';
import { Text } from './Text.js';
import { inertLine, oneLine } from '../../lib/index.js';
import { tokens } from '../format.js';
import type { PickerState } from '../state/types.js';

/**
 * /resume's picker, as in Claude Code: the lead's recent sessions, newest first, numbered as
 * `/resume <n>` takes them; the selected one is marked, the one the lead is in says so.
 */
export const ResumePicker = memo(function ResumePicker({ picker }: { picker: PickerState }) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>
        Resume a session <Text dimColor>↑/↓ choose · Enter go on with it · Esc close</Text>
      </Text>
      {picker.choices.map((choice, i) => {
        const selected = i === picker.selected;
        return (
          <Text key={choice.id} wrap="truncate-end" color={selected ? 'cyan' : undefined}>
            {selected ? '› ' : '  '}
            {`${String(i + 1).padStart(2)}. ${choice.lastActive}  `}
            <Text bold={selected}>{oneLine(inertLine(choice.prompt), 60)}</Text>
            <Text dimColor>{`  ${choice.records} records · ${tokens(choice.tokens)} tokens · ${choice.id}${choice.current ? ' · now' : ''}`}</Text>
          </Text>
        );
      })}
    </Box>
  );
});
