import { Box } from 'ink';
import { Text } from './Text.js';
import { memo } from 'react';
import type { LineState } from '../state/types.js';
import { Line } from './Line.js';

export type InputLineProps = {
  line: LineState;
  focused: boolean;
  hint: string | undefined;
  disabled: boolean;
  /** Whom what is typed goes to: the lead, or the teammate being viewed (as the user's words). */
  to?: string;
};

/** The line the human types into: words for the lead, or a slash command. */
export const InputLine = memo(function InputLine({ line, focused, hint, disabled, to = 'lead' }: InputLineProps) {
  return (
    <Box flexDirection="column">
      <Box>
        <Text color={focused && !disabled ? 'cyan' : 'gray'} bold>{'› '}</Text>
        <Line line={line} focused={focused && !disabled} placeholder={disabled ? '' : to === 'lead' ? 'message the lead, or /help' : `message ${to} as yourself, or /help`} />
      </Box>
      {hint ? <Text dimColor>{hint}</Text> : null}
    </Box>
  );
});
