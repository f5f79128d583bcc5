import { Text } from './Text.js';
import type { LineState } from '../state/types.js';

/** A line of typed text with its cursor shown as an inverted cell. */
export function Line({ line, focused, placeholder }: { line: LineState; focused: boolean; placeholder?: string }) {
  if (!focused) return <Text dimColor>{line.text === '' ? (placeholder ?? '') : line.text}</Text>;
  if (line.text === '' && placeholder) {
    return (
      <Text>
        <Text inverse> </Text>
        <Text dimColor>{placeholder}</Text>
      </Text>
    );
  }
  const { text, cursor } = line;
  return (
    <Text>
      {text.slice(0, cursor)}
      <Text inverse>{text[cursor] ?? ' '}</Text>
      {text.slice(cursor + 1)}
    </Text>
  );
}
