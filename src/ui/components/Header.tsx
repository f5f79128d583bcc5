import { Box } from 'ink';
import { Text } from './Text.js';
import { memo } from 'react';
import { tokens } from '../format.js';
import { dollars } from '../../present/index.js';
import { senderColor } from './TranscriptLine.js';
import type { Phase } from '../state/types.js';

export type HeaderProps = {
  team: string;
  modelLabel: string;
  offline: boolean;
  cwd: string;
  sandbox: string;
  /** False when approvals do not bind (no sandbox): then the header says so in red. */
  sandboxBinding: boolean;
  tokens: number;
  /** In USD; undefined when the model's price is not known. */
  cost: number | undefined;
  phase: Phase;
  /** Teammates a shutdown still waits for, comma-separated (a string, so memo compares it by value). */
  waitingFor: string;
  /** The lead's permission mode (Shift+Tab cycles it); a stand-in without one shows none. */
  mode?: string;
  /** Whose session the main pane shows. */
  view: string;
  /** The team store cannot be reached: why, and that calls wait. */
  storeDown: string | undefined;
};

function stopLine(phase: Phase, waitingFor: string): string | undefined {
  const who = waitingFor !== '' ? `waiting for ${waitingFor.split(',').join(', ')}` : 'closing';
  if (phase === 'stopping') return `Shutting the team down: ${who}… (Ctrl+C again to force)`;
  if (phase === 'forcing') return `Ending every teammate now: ${who}…`;
  if (phase === 'stopped') return 'The team has stopped. Bye.';
  return undefined;
}

/** Team, model (the offline model stands out), the session's tokens and cost, and any shutdown under way. */
export const Header = memo(function Header({ team, modelLabel, offline, cwd, sandbox, sandboxBinding, tokens: count, cost: usd, phase, waitingFor, view, storeDown, mode }: HeaderProps) {
  const cost = usd === undefined ? 'cost n/a' : dollars(usd);
  const stopping = stopLine(phase, waitingFor);
  return (
    <Box flexDirection="column">
      {/* Segments wrap as wholes: a narrow terminal never splits the model's label. */}
      <Box flexWrap="wrap">
        <Text>
          <Text bold>teams</Text>
          <Text dimColor> · team </Text>
          <Text bold>{team}</Text>
        </Text>
        <Text>
          <Text dimColor> · </Text>
          {tokens(count)} tokens<Text dimColor> · </Text>
          {cost}
        </Text>
        <Text>
          <Text dimColor> · model </Text>
          <Text color={offline ? 'yellow' : 'green'}>{modelLabel}</Text>
        </Text>
        {mode === undefined ? null : (
          <Text>
            <Text dimColor> · mode </Text>
            <Text bold color={mode === 'plan' ? 'cyan' : mode === 'default' ? undefined : 'magenta'}>{mode}</Text>
            <Text dimColor> (Shift+Tab)</Text>
          </Text>
        )}
        <Text>
          <Text dimColor> · view </Text>
          <Text bold>{view}</Text>
          <Text dimColor> (Shift+↑/↓)</Text>
        </Text>
        <Text dimColor> · {cwd}</Text>
        {sandboxBinding ? <Text dimColor> · {sandbox}</Text> : null}
      </Box>
      {sandboxBinding ? null : <Text color="red" bold>{sandbox}</Text>}
      {view === 'lead' ? null : (
        <Text color={senderColor(view)}>
          {`Viewing ${view}: what you type goes to ${view} as your message · Esc interrupts ${view} · Ctrl+O expands tool results · /view or Shift+↑/↓ switches`}
        </Text>
      )}
      {storeDown === undefined ? null : <Text color="red" bold>{`Team store down: ${storeDown}`}</Text>}
      {stopping ? <Text color={phase === 'stopped' ? 'green' : 'yellow'}>{stopping}</Text> : null}
    </Box>
  );
});
