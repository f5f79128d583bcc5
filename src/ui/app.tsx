import { Box, useInput, useStdout } from 'ink';
import { useMemo, useSyncExternalStore } from 'react';
import { ApprovalQueue } from './components/ApprovalQueue.js';
import { Header } from './components/Header.js';
import { InputLine } from './components/InputLine.js';
import { TeamPanel } from './components/TeamPanel.js';
import { TaskPanel } from './components/TaskPanel.js';
import { ResumePicker } from './components/ResumePicker.js';
import { LiveTurn, Transcript } from './components/Transcript.js';
import { ReplController } from './controller.js';
import type { ReplRuntime } from './runtime.js';
import { describeStatus } from '../sandbox/index.js';
import { failedMcpServers } from '../tools/index.js';
import { initialState } from './state/initial.js';
import { append } from './state/items.js';
import { resumedItems } from './state/resumed.js';
import { shownItems, viewLive } from './state/view.js';
import { LEAD } from '../protocol/index.js';
import { currentTasks, pendingBySender, sessionUsage, stillRunning } from './state/selectors.js';
import type { NewItem, State } from './state/types.js';
import { createStore, type Store } from './store.js';

/** Erase the screen and its scrollback, then home the cursor: /clear. */
const CLEAR_SCREEN = '\u001b[2J\u001b[3J\u001b[H';

export type AppProps = { store: Store; controller: ReplController };

/** The whole screen: it renders the store's state, and its one useInput hands every key to the controller. */
export function App({ store, controller }: AppProps) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const { write } = useStdout();
  useInput((input, key) => controller.handleKey(input, key, { clear: () => write(CLEAR_SCREEN) }));
  const usage = sessionUsage(state);
  const pending = useMemo(() => pendingBySender(state), [state.queue]);
  const current = useMemo(() => currentTasks(state), [state.tasks]);
  const waitingFor = stillRunning(state.members).join(',');
  const viewed = state.view === LEAD ? undefined : state.views[state.view];
  const viewedStatus = state.members.find((m) => m.name === state.view)?.status;
  const teammateLive = useMemo(() => viewLive(viewed, viewedStatus), [viewed?.fold, viewedStatus]);
  return (
    <>
      <Transcript items={shownItems(state)} epoch={state.epoch} detailed={state.detailed} />
      <Box flexDirection="column">
        {state.view === LEAD ? <LiveTurn live={state.live} /> : <LiveTurn live={teammateLive} name={state.view} />}
        <Box marginTop={1}>
          <Header
            team={state.team}
            modelLabel={state.modelLabel}
            offline={state.offline}
            cwd={state.cwd}
            sandbox={state.sandbox.text}
            sandboxBinding={state.sandbox.binding}
            tokens={usage.tokens}
            cost={usage.cost}
            phase={state.phase}
            waitingFor={waitingFor}
            view={state.view}
            mode={state.leadMode}
            storeDown={state.storeDown}
          />
        </Box>
        <TeamPanel members={state.members} activity={state.activity} pending={pending} current={current} now={state.now} view={state.view} />
        {state.tasksShown ? <TaskPanel tasks={state.tasks} /> : null}
        <ApprovalQueue
          queue={state.queue}
          selected={state.selected}
          expanded={state.expanded}
          deciding={state.deciding}
          focus={state.focus}
          reason={state.reason}
          rule={state.rule}
          preview={state.preview}
          now={state.now}
        />
        {state.picker ? <ResumePicker picker={state.picker} /> : null}
        <InputLine line={state.input} focused={state.focus === 'input'} hint={state.hint} disabled={state.phase !== 'running'} to={state.view} />
      </Box>
    </>
  );
}

/** The state a fresh REPL starts from: the roster and the queue as they are now, after a resumed session's conversation. */
export async function stateFor(runtime: ReplRuntime, now = Date.now()): Promise<State> {
  const { cwd, settings } = runtime.options;
  const [team, { pending: queue, mode }] = await Promise.all([runtime.store.roster.load(), runtime.snapshot()]);
  const state = initialState({
    team: runtime.store.team,
    modelLabel: runtime.model.label,
    model: settings.model,
    offline: settings.offline,
    sandbox: { text: describeStatus(runtime.sandbox), binding: runtime.sandbox.kind === 'bwrap' },
    cwd,
    members: team?.members ?? [],
    queue,
    now,
    leadMode: mode,
    ...(runtime.session === undefined ? {} : { sessionId: runtime.session.id, spentBefore: runtime.session.spent }),
  });
  const session = runtime.session;
  // Shown whether or not the session is resumed: a new one also starts after a lead that died.
  const recovered: NewItem[] = [...(session?.notices ?? []), ...(session?.recovered ?? []), ...failedMcpServers(runtime.mcp)].map((text) => ({ kind: 'error', text }));
  if (!session?.resumed) return append(state, ...recovered);
  const problems: NewItem[] = session.problems.map((p) => ({ kind: 'error', text: `set aside ${p.ref}: ${p.reason}` }));
  return append(state, ...resumedItems(session.id, session.earlier), ...problems, ...recovered);
}

export type Repl = { store: Store; controller: ReplController; element: React.JSX.Element };

/** Store, controller and App for a runtime, from its first state (`stateFor`, or a test's or the bench's own). */
export function createRepl(runtime: ReplRuntime, initial: State): Repl {
  const store = createStore(initial);
  const controller = new ReplController(runtime, store);
  return { store, controller, element: <App store={store} controller={controller} /> };
}
