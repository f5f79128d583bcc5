import type { AgentEvent } from '../../agent/index.js';
import { addSpent, spentOn } from '../../model/index.js';
import { LEAD, humanLine, keyValues, describeRequestChange } from '../../protocol/index.js';
import type { LeadEvent } from '../../lead/index.js';
import { oneLine } from '../../lib/index.js';
import { append } from './items.js';
import { DETAIL_CHARS } from './view.js';
import { queueChanged } from './queue.js';
import { compactionLine } from '../../present/index.js';
import type { NewItem, State } from './types.js';

function withActivity(state: State, name: string, text: string): State {
  return { ...state, activity: { ...state.activity, [name]: text } };
}

/** The lead's own loop: its streamed turn stays live until the turn ends, then goes to the transcript. */
function reduceAgent(state: State, event: AgentEvent): State {
  const live = state.live;
  switch (event.type) {
    // The human's words are shown as they are submitted, and notices as the messages they come from.
    case 'input':
      return state;
    case 'turn_start':
      return withActivity({ ...state, live: { ...live, busy: true } }, LEAD, 'thinking');
    case 'text_delta':
      return { ...state, live: { ...live, text: live.text + event.text } };
    case 'turn_end': {
      const text = event.text.trim();
      const next = { ...state, live: { ...live, text: '' }, leadSpent: addSpent(state.leadSpent, spentOn(event.model, event.usage)) };
      return text === '' ? next : append(next, { kind: 'lead', text, interrupted: false });
    }
    case 'tool_call': {
      const tool = { id: event.id, name: event.name, input: keyValues(event.input) };
      return withActivity({ ...state, live: { ...live, tools: [...live.tools, tool] } }, LEAD, `⚙ ${event.name}`);
    }
    case 'tool_result': {
      const call = live.tools.find((t) => t.id === event.id);
      const next = { ...state, live: { ...live, tools: live.tools.filter((t) => t.id !== event.id) } };
      return append(next, { kind: 'tool', name: event.name, input: call?.input ?? '', result: oneLine(event.content, 100), isError: event.isError, detail: event.content.slice(0, DETAIL_CHARS) });
    }
    case 'idle': {
      // An interrupted turn never ends normally: what it streamed, and its unfinished tools, are kept.
      const leftovers: NewItem[] = [];
      if (live.text.trim() !== '') leftovers.push({ kind: 'lead', text: live.text.trim(), interrupted: true });
      for (const tool of live.tools) leftovers.push({ kind: 'tool', name: tool.name, input: tool.input, result: 'interrupted', isError: true });
      // While the team stops, the stop itself interrupts the lead: not news.
      if (event.reason === 'interrupted' && state.phase === 'running') leftovers.push({ kind: 'info', text: 'the lead was interrupted' });
      const next = { ...state, live: { busy: false, text: '', tools: [] } };
      return withActivity(append(next, ...leftovers), LEAD, '');
    }
    case 'error':
      return append(state, { kind: 'error', text: event.message });
    case 'compaction_skipped':
      return append({ ...state, leadSpent: addSpent(state.leadSpent, spentOn(event.model, event.usage)) }, { kind: 'error', text: event.message });
    case 'compacted':
      return append({ ...state, leadSpent: addSpent(state.leadSpent, spentOn(event.model, event.usage)) }, { kind: 'info', text: compactionLine(LEAD, event.before, event.after, event.reason) });
  }
}

export function reduceLeadEvent(state: State, event: LeadEvent): State {
  switch (event.type) {
    case 'agent':
      return reduceAgent(state, event.event);
    case 'message': {
      const envelope = event.envelope;
      const text = humanLine(envelope);
      const next = withActivity(state, envelope.from, oneLine(text, 60));
      return append(next, { kind: 'message', from: envelope.from, type: envelope.type, text });
    }
    case 'approvals':
      return queueChanged(state, event.pending);
    case 'request': {
      const { actor, type, text } = describeRequestChange(event.record);
      return append(state, { kind: 'message', from: actor, type, text });
    }
    case 'team':
      return { ...state, members: event.members };
    case 'teammate_exit': {
      const item: NewItem = event.crashed ? { kind: 'error', text: `${event.name} crashed (${event.why})` } : { kind: 'info', text: `${event.name} exited (${event.why})` };
      return withActivity(append(state, item), event.name, 'exited');
    }
    case 'problem':
      return append(state, { kind: 'error', text: event.text });
    case 'notice':
      return append(state, { kind: 'info', text: event.text });
    case 'teammate_compacted':
      return append(state, { kind: 'info', text: compactionLine(event.name, event.before, event.after, event.reason) });
    case 'lead_mode':
      return append({ ...state, leadMode: event.mode }, { kind: 'info', text: `the lead's permission mode: ${event.mode}${event.mode === 'plan' ? ' (its commands cannot write)' : ''}` });
    case 'lead_model':
      return append({ ...state, model: event.model, modelLabel: event.label }, { kind: 'info', text: `the lead's next turns use ${event.label}` });
    // The controller says so after the screen is cleared (/clear): said here, it would be cleared with it.
    case 'lead_session':
      return { ...state, sessionId: event.id };
  }
}
