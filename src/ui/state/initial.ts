import { LEAD } from '../../protocol/index.js';
import { NOTHING_SPENT } from '../../model/index.js';
import { rosterSpending } from './selectors.js';
import { EMPTY_LINE } from './line.js';
import type { State } from './types.js';

/** What the REPL knows of the team and the session when it opens; the rest starts empty. */
export type InitialState = Pick<State, 'team' | 'modelLabel' | 'model' | 'offline' | 'sandbox' | 'cwd' | 'members' | 'queue' | 'now'> & Partial<Pick<State, 'leadMode' | 'sessionId' | 'spentBefore'>>;

export function initialState(init: InitialState): State {
  return {
    leadMode: 'default',
    sessionId: undefined,
    spentBefore: {},
    ...init,
    usageAtStart: rosterSpending(init.members),
    transcript: [],
    view: LEAD,
    views: {},
    detailed: false,
    tasks: [],
    tasksShown: false,
    epoch: 0,
    nextId: 1,
    live: { busy: false, text: '', tools: [] },
    leadSpent: NOTHING_SPENT,
    activity: {},
    selected: 0,
    expanded: false,
    preview: undefined,
    deciding: [],
    focus: 'input',
    input: EMPTY_LINE,
    reason: undefined,
    rule: undefined,
    picker: undefined,
    history: [],
    historyIndex: undefined,
    draft: '',
    hint: undefined,
    phase: 'running',
    storeDown: undefined,
    exitArmedAt: undefined,
  };
}
