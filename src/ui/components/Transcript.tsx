import { Box, Static, Text } from 'ink';
import { memo } from 'react';
import type { LiveTurn as Live, TranscriptItem } from '../state/types.js';
import { Label, TranscriptLine } from './TranscriptLine.js';

/**
 * Finished items, each printed once by <Static>: a streamed token re-renders the live turn
 * below, never these. /clear bumps `epoch`, which starts a fresh <Static>.
 */
export const Transcript = memo(function Transcript({ items, epoch }: { items: TranscriptItem[]; epoch: number }) {
  return (
    <Static key={epoch} items={items} style={{ width: "100%" }}>
      {(item) => <TranscriptLine key={item.id} item={item} />}
    </Static>
  );
});

/** The live area shows only the end of a long streamed turn; the whole text goes to the transcript when the turn ends. */
const LIVE_LINES = 12;

/** The lead's turn under way: its streamed text and the tools still running. */
export const LiveTurn = memo(function LiveTurn({ live }: { live: Live }) {
  if (!live.busy && live.text === '' && live.tools.length === 0) return null;
  const lines = live.text.trimStart().split('\n');
  const shown = lines.length > LIVE_LINES ? ['…', ...lines.slice(-LIVE_LINES)].join('\n') : lines.join('\n');
  return (
    <Box flexDirection="column">
      {live.text === '' ? (
        <Text dimColor>lead is thinking… (Esc interrupts)</Text>
      ) : (
        <Box>
          <Label color="magenta" width={5}>
            lead
          </Label>
          <Text>{shown}</Text>
        </Box>
      )}
      {live.tools.map((tool) => (
        <Text key={tool.id} dimColor wrap="truncate-end">
          {'      ⚙ '}
          {tool.name} {tool.input} …
        </Text>
      ))}
    </Box>
  );
});
