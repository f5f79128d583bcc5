import { LEAD, type RequestRecord } from '../../protocol/index.js';
import { ZERO_USAGE } from '../../model/index.js';
import type { Member } from '../../store/index.js';
import { EMPTY_LINE } from './line.js';
import type { State } from './types.js';

export type InitialState = {
  team: string;
  modelLabel: string;
  model: string;
  offline: boolean;
  /** What the header says of the sandbox; `binding` false when approvals are advisory. */
  sandbox: { text: string; binding: boolean };
  cwd: string;
  members: Member[];
  queue: RequestRecord[];
  now: number;
};

export function initialState(init: InitialState): State {
  return {
    ...init,
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
  };
}
