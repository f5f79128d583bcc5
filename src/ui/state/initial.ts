import { LEAD } from '../../protocol/index.js';
import { ZERO_USAGE } from '../../model/index.js';
import { memberCost } from '../../team/index.js';
import { EMPTY_LINE } from './line.js';
import type { State } from './types.js';

/** What the REPL knows of the team and the session when it opens; the rest starts empty. */
export type InitialState = Pick<State, 'team' | 'modelLabel' | 'model' | 'offline' | 'sandbox' | 'cwd' | 'members' | 'queue' | 'now'> & Partial<Pick<State, 'leadMode' | 'sessionId'>>;

export function initialState(init: InitialState): State {
  return {
    leadMode: 'default',
    sessionId: undefined,
    ...init,
    usageAtStart: Object.fromEntries(init.members.flatMap((m) => (m.usage ? [[m.name, { usage: { ...ZERO_USAGE, ...m.usage }, cost: memberCost(m) }]] : []))),
    transcript: [],
    view: LEAD,
    views: {},
    detailed: false,
    tasks: [],
    tasksShown: false,
    epoch: 0,
    nextId: 1,
    live: { busy: false, text: '', tools: [] },
    leadUsage: ZERO_USAGE,
    activity: {},
    selected: 0,
    expanded: false,
    preview: undefined,
    deciding: [],
    focus: 'input',
    input: EMPTY_LINE,
    reason: undefined,
    rule: undefined,
    history: [],
    historyIndex: undefined,
    draft: '',
    hint: undefined,
    phase: 'running',
    storeDown: undefined,
    exitArmedAt: undefined,
  };
}
