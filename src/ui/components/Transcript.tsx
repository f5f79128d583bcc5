import { Box, Static, useStdout } from 'ink';
import { Text } from './Text.js';
import { lastRows } from '../format.js';
import { inertText } from '../../lib/index.js';
import { memo } from 'react';
import type { LiveTurnState as Live, TranscriptItem } from '../state/types.js';
import { Label, senderColor, TranscriptLine } from './TranscriptLine.js';

/**
 * Finished items, each printed once by <Static>: a streamed token re-renders the live turn
 * below, never these. /clear bumps `epoch`, which starts a fresh <Static>.
 */
export const Transcript = memo(function Transcript({ items, epoch, detailed = false }: { items: TranscriptItem[]; epoch: number; detailed?: boolean }) {
  return (
    <Static key={epoch} items={items} style={{ width: "100%" }}>
      {(item) => <TranscriptLine key={item.id} item={item} detailed={detailed} />}
    </Static>
  );
});

/** The live area shows only the end of a long streamed turn (a third of the screen, at most 12 rows); the whole text goes to the transcript when the turn ends. */
const liveRows = (screenRows: number | undefined) => Math.max(3, Math.min(12, Math.floor((screenRows || 36) / 3)));
/** The "lead" label's column and its margin. */
const LABEL_WIDTH = 6;

/** An agent's turn under way (the lead's, or the teammate's being viewed): its streamed text and the tools still running. */
export const LiveTurn = memo(function LiveTurn({ live, name = 'lead' }: { live: Live; name?: string }) {
  const { stdout } = useStdout();
  if (!live.busy && live.text === '' && live.tools.length === 0) return null;
  // Ink wraps at words, so a row holds somewhat fewer characters than the width: counted at 90%.
  // Made inert before it is measured: an escape takes more columns than the control it shows.
  const tail = lastRows(inertText(live.text.trimStart()), liveRows(stdout.rows), Math.floor(((stdout.columns || 80) - Math.max(LABEL_WIDTH, name.length + 1)) * 0.9));
  const shown = tail.cut ? `…${tail.text}` : tail.text;
  return (
    <Box flexDirection="column">
      {live.text !== '' ? (
        <Box>
          <Label color={name === 'lead' ? 'magenta' : senderColor(name)} width={Math.max(5, name.length)}>
            {name}
          </Label>
          <Text>{shown}</Text>
        </Box>
      ) : live.busy ? (
        <Text dimColor>{name} is thinking… (Esc interrupts)</Text>
      ) : null}
      {live.tools.map((tool) => (
        <Text key={tool.id} dimColor wrap="truncate-end">
          {'      ⚙ '}
          {tool.name} {tool.input} …
        </Text>
      ))}
    </Box>
  );
});
