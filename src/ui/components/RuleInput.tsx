import { Box } from 'ink';
import type { RuleInputState } from '../state/types.js';
import { Line } from './Line.js';
import { Text } from './Text.js';

/** `a` on a permission request: the choice, then the project rule being edited, with the parser's complaint if any. */
export function RuleInput({ rule }: { rule: RuleInputState }) {
  if (rule.stage === 'choose') {
    return (
      <Box flexDirection="column">
        <Text color="green">{`Allow ${rule.requestId}:`}</Text>
        <Text>{'  s  this exact call, for the session'}</Text>
        <Text>{`  p  a rule for the project${rule.text === '' ? '' : `: ${rule.text}`} (editable next)`}</Text>
        <Text dimColor>  Esc cancels</Text>
      </Box>
    );
  }
  return (
    <Box flexDirection="column">
      <Box>
        <Text color="green">{`Allow rule for the project (approves ${rule.requestId}): `}</Text>
        <Line line={rule} focused placeholder="e.g. Bash(npm test:*)" />
      </Box>
      {rule.error ? <Text color="red">{`invalid rule: ${rule.error}`}</Text> : null}
      <Text dimColor>  Enter saves it to settings.json and approves · Esc cancels</Text>
    </Box>
  );
}
