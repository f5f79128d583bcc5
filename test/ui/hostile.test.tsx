import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanup, render } from 'ink-testing-library';
import { ApprovalQueue } from '../../src/ui/components/ApprovalQueue.js';
import { Header } from '../../src/ui/components/Header.js';
import { InputLine } from '../../src/ui/components/InputLine.js';
import { TeamPanel } from '../../src/ui/components/TeamPanel.js';
import { LiveTurn, Transcript } from '../../src/ui/components/Transcript.js';
import { reduce } from '../../src/ui/state/reduce.js';
import type { TranscriptItem, UiAction } from '../../src/ui/state/types.js';
import type { Envelope, Kind } from '../../src/protocol/messages.js';
import { keyValues } from '../../src/protocol/kinds/text.js';
import { sample, SAMPLES } from '../protocol/fixtures.js';
import { assertInert, HOSTILE } from '../helpers/hostile.js';
import { agent, member, NOW, request, state, task } from './fixtures.js';

afterEach(cleanup);

/** Ink's own colours are its business; anything else that could act on the terminal is not. */
function frame(element: React.JSX.Element, what: string): string {
  // eslint-disable-next-line no-control-regex -- the SGR sequences Ink writes itself
  const text = (render(element).lastFrame() ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  assertInert(text, what);
  return text;
}

/** The hostile text, as it shows: escaped, visible. */
const SHOWS = /\\x1b\[2J\\x1b\]0;pwned\\x07/;

function hostileEnvelope(kind: Kind): Envelope {
  const overrides: Record<string, unknown> = { from: 'alice', to: 'lead' };
  for (const [field, value] of Object.entries(SAMPLES[kind])) {
    if (['type', 'id', 'from', 'to', 'timestamp', 'request_id', 'status'].includes(field)) continue;
    if (typeof value === 'string') overrides[field] = HOSTILE;
    else if (field === 'tool_input') overrides[field] = { command: HOSTILE };
  }
  if (kind === 'shutdown_response') Object.assign(overrides, { approve: false, reason: HOSTILE });
  return sample(kind, overrides);
}

describe('what an agent wrote never reaches the terminal raw: the REPL', () => {
  test('a tool input is cut to one inert line', () => {
    assertInert(keyValues({ command: HOSTILE, n: 1 }), 'keyValues');
  });

  test('every transcript item', () => {
    const items: TranscriptItem[] = [
      { id: 1, kind: 'user', text: HOSTILE },
      { id: 2, kind: 'lead', text: `${HOSTILE}\nmore`, interrupted: true },
      { id: 3, kind: 'tool', name: HOSTILE, input: HOSTILE, result: HOSTILE, isError: false },
      { id: 4, kind: 'message', from: 'alice', type: 'message', text: HOSTILE },
      { id: 5, kind: 'info', text: HOSTILE },
      { id: 6, kind: 'output', text: HOSTILE },
      { id: 7, kind: 'error', text: HOSTILE },
    ];
    for (const item of items) assert.match(frame(<Transcript items={[item]} epoch={0} />, item.kind), SHOWS, item.kind);
  });

  test('messages of every kind, from the runtime event to the screen', () => {
    const actions = (Object.keys(SAMPLES) as Kind[]).map((kind): UiAction => ({ type: 'lead_event', event: { type: 'message', envelope: hostileEnvelope(kind) } }));
    actions.push(
      { type: 'lead_event', event: agent({ type: 'tool_call', id: 't1', name: 'bash', input: { command: HOSTILE } }) },
      { type: 'lead_event', event: agent({ type: 'tool_result', id: 't1', name: 'bash', content: HOSTILE, isError: true }) },
      { type: 'lead_event', event: agent({ type: 'error', message: HOSTILE }) },
      { type: 'lead_event', event: { type: 'problem', text: HOSTILE } },
    );
    const s = actions.reduce(reduce, state());
    assert.match(frame(<Transcript items={s.transcript} epoch={0} />, 'transcript'), SHOWS);
    frame(<TeamPanel members={s.members} activity={s.activity} pending={new Map()} current={new Map()} now={NOW} view="lead" />, 'activity');
  });

  test('the live turn, the team panel, the approval queue, the header, the input line', () => {
    assert.match(frame(<LiveTurn live={{ busy: true, text: HOSTILE, tools: [{ id: 't', name: HOSTILE, input: HOSTILE }] }} />, 'live turn'), SHOWS);
    const members = [member('lead'), member('alice', 'working', { role: HOSTILE })];
    const current = new Map([['alice', [task('1', 'in_progress', { owner: 'alice', subject: HOSTILE }), task('2', 'in_progress', { owner: 'alice' })]]]);
    frame(<TeamPanel members={members} activity={{ alice: HOSTILE }} pending={new Map()} current={current} now={NOW} view="lead" />, 'team panel');
    const queue = [request('plan-1', 'plan', 'alice', { summary: `${HOSTILE}\n${HOSTILE}` })];
    const base = { queue, selected: 0, deciding: [], reason: undefined, now: NOW };
    frame(<ApprovalQueue {...base} expanded={false} focus="input" />, 'queue');
    assert.match(frame(<ApprovalQueue {...base} expanded focus="queue" />, 'expanded request'), SHOWS);
    frame(<ApprovalQueue {...base} expanded={false} focus="reason" reason={{ requestId: 'plan-1', text: HOSTILE, cursor: 7 }} />, 'reason');
    const header = { team: 'default', modelLabel: HOSTILE, offline: false, cwd: HOSTILE, sandbox: HOSTILE, sandboxBinding: false, tokens: 0, cost: 0, phase: 'running' as const, waitingFor: '', view: 'lead', storeDown: HOSTILE };
    frame(<Header {...header} />, 'header');
    frame(<InputLine line={{ text: HOSTILE, cursor: 6 }} focused hint={HOSTILE} disabled={false} />, 'input line');
  });
});
